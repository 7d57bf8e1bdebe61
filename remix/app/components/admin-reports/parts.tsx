/**
 * Pieces of the platform-wide SMS screens and the analytics (routes/admin/_app.admin.sms.*,
 * _app.admin.analytics.tsx; issue 23): the period form (a plain GET form: from, to and the
 * screen's own fields, the chosen customer kept by id), who the figures cover, rates and amounts.
 */
import { Form, Link } from "@remix-run/react";
import type { ReactNode } from "react";
import { ErrorText } from "~/components/forms/fields";
import { formatPercent } from "~/components/sms-reports/format";
import { Button } from "~/components/ui/button";
import { Input } from "~/components/ui/input";
import { Label } from "~/components/ui/label";
import { formatMoney } from "~/lib/format";
import type { Lng } from "~/lib/i18n";
import { useTranslation } from "~/lib/react-i18n";

export type PeriodValues = { from: string; to: string; account_id: string };

/** The period form: from and to (São Paulo days), `children` the screen's other fields; errors by field. */
export function PeriodForm({
  action,
  values,
  errors,
  account,
  children,
}: {
  action: string;
  values: PeriodValues;
  errors: Record<string, string[]>;
  account: { id: string; name: string } | null;
  children?: ReactNode;
}) {
  const { t } = useTranslation("adminReports");
  return (
    <Form method="get" action={action} aria-label={t("filters.title")} className="flex flex-wrap items-start gap-3">
      {(["from", "to"] as const).map((k) => (
        <div key={k} className="grid gap-1.5">
          <Label htmlFor={`period-${k}`}>{t(`filters.${k}`)}</Label>
          <Input
            id={`period-${k}`}
            type="date"
            name={k}
            defaultValue={values[k]}
            aria-invalid={errors[k]?.length ? true : undefined}
            aria-describedby={errors[k]?.length ? `period-${k}-error` : undefined}
          />
          <ErrorText id={`period-${k}-error`} errors={errors[k]} />
        </div>
      ))}
      {children}
      {account ? <input type="hidden" name="account_id" value={account.id} /> : null}
      <Button type="submit" variant="secondary" className="mt-6">
        {t("filters.submit")}
      </Button>
      <ErrorText id="period-account-error" errors={errors.account_id} />
    </Form>
  );
}

/** Whose figures these are, and the chosen customer with a link back to all of them. */
export function ReachLine({ reach, account, allHref }: { reach: "platform" | "reseller"; account: { name: string } | null; allHref: string }) {
  const { t } = useTranslation("adminReports");
  return (
    <p className="text-sm text-muted-foreground" data-reach={reach}>
      {t(`reach.${reach}`)}{" "}
      {account ? (
        <>
          <span data-testid="report-account">{t("filters.account", { name: account.name })}</span>{" "}
          <Link to={allHref} className="text-primary hover:underline">
            {t("filters.clearAccount")}
          </Link>
        </>
      ) : null}
    </p>
  );
}

/** Amounts in one or more currencies ("R$ 1,20 + US$ 0,40"); none: "—". */
export function amounts(list: Array<{ currency: string; amount: number }>, lng: Lng) {
  return list.length ? list.map((m) => formatMoney(m.amount, m.currency, lng)).join(" + ") : "—";
}

export const rateOf = (ratio: number, lng: Lng) => formatPercent(ratio, lng);

/** The screen's URL with its parameters (empty ones left out). */
export function hrefOf(path: string, params: Record<string, string | undefined | null>) {
  const p = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v) p.set(k, v);
  const q = p.toString();
  return q ? `${path}?${q}` : path;
}
