/**
 * /numbers/active: the account's short codes and WhatsApp numbers and what they cost (issue 18;
 * spec: "/numbers/active admin"; ADR 047), GET /api/numbers/active's use-case. Read-only, no script
 * needed: each with its status and monthly price, and the monthly total.
 */
import { json, type LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData, useRouteLoaderData } from "@remix-run/react";
import { useTranslation } from "~/lib/react-i18n";
import { activeNumbers } from "~api/seats/screens";
import { PageHeader } from "~/components/shell/page-header";
import { Card, CardContent, CardHeader, CardTitle } from "~/components/ui/card";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "~/components/ui/table";
import { orHttpError, requireRoute } from "~/lib/auth.server";
import { formatDate, formatMoney } from "~/lib/format";
import type { Lng } from "~/lib/i18n";
import type { RootData } from "~/root";

export const handle = { crumb: "seats:crumbs.numbers" };

export async function loader({ request }: LoaderFunctionArgs) {
  const ctx = await requireRoute(request);
  const numbers = await orHttpError(activeNumbers(ctx));
  return json({ numbers }, { headers: { "Cache-Control": "private, no-store" } });
}

export default function ActiveNumbers() {
  const { numbers: n } = useLoaderData<typeof loader>();
  const lng = (useRouteLoaderData<RootData>("root")?.lng ?? "pt-BR") as Lng;
  const { t } = useTranslation("seats");
  const money = (v: number) => formatMoney(v, n.currency, lng);
  return (
    <div className="space-y-6">
      <PageHeader description={t("numbers.description")} />
      <Card data-figure="total">
        <CardHeader className="pb-2">
          <p className="text-sm text-muted-foreground">{t("numbers.monthlyTotal")}</p>
        </CardHeader>
        <CardContent>
          <p className="text-lg font-semibold">{money(n.monthly_total)}</p>
        </CardContent>
      </Card>
      <NumbersCard
        title={t("numbers.shortCodes")}
        labelHead={t("numbers.nickname")}
        empty={t("numbers.noShortCodes")}
        kind="short-codes"
        rows={n.short_codes.map((s) => ({ ...s, label: s.nickname, status: t(`numbers.statuses.${s.status}`, { defaultValue: s.status }) }))}
        money={money}
        lng={lng}
      />
      <NumbersCard
        title={t("numbers.whatsapp")}
        labelHead={t("numbers.name")}
        empty={t("numbers.noWhatsapp")}
        kind="whatsapp-numbers"
        rows={n.whatsapp_numbers.map((w) => ({ ...w, label: w.name }))}
        money={money}
        lng={lng}
      />
    </div>
  );
}

type NumberRow = { id: string; number: string; label: string; status: string; since: string; monthly_price: number };

/** One kind of number (short codes, WhatsApp numbers): number, its name, status, since when, monthly price. */
function NumbersCard({
  title,
  labelHead,
  empty,
  kind,
  rows,
  money,
  lng,
}: {
  title: string;
  labelHead: string;
  empty: string;
  kind: string;
  rows: NumberRow[];
  money: (v: number) => string;
  lng: Lng;
}) {
  const { t } = useTranslation("seats");
  return (
    <Card>
      <CardHeader>
        <CardTitle>{title}</CardTitle>
      </CardHeader>
      <CardContent>
        {rows.length ? (
          <Table {...{ [`data-${kind}`]: "" }}>
            <TableHeader>
              <TableRow>
                <TableHead>{t("numbers.number")}</TableHead>
                <TableHead>{labelHead}</TableHead>
                <TableHead>{t("numbers.status")}</TableHead>
                <TableHead>{t("numbers.since")}</TableHead>
                <TableHead className="text-right">{t("numbers.monthlyPrice")}</TableHead>
              </TableRow>
            </TableHeader>
            <TableBody>
              {rows.map((r) => (
                <TableRow key={r.id}>
                  <TableCell className="font-mono">{r.number}</TableCell>
                  <TableCell>{r.label}</TableCell>
                  <TableCell>{r.status}</TableCell>
                  <TableCell>{formatDate(r.since, lng)}</TableCell>
                  <TableCell className="text-right">{money(r.monthly_price)}</TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        ) : (
          <p className="text-sm text-muted-foreground">{empty}</p>
        )}
      </CardContent>
    </Card>
  );
}
