/**
 * /admin/email/reports/insights (platform staff; issue 17, ADR 039): /mail/insights over every
 * account, or one (the account field of the GET form, as the admin WhatsApp reports): a period of São
 * Paulo days (at most 31) — totals and rates, per day, by recipient domain, the click map.
 */
import { json, type LoaderFunctionArgs } from "@remix-run/node";
import { Form, useLoaderData, useRouteLoaderData } from "@remix-run/react";
import { useTranslation } from "~/lib/react-i18n";
import { emailStaffCheck } from "~api/email/admin-reports";
import { adminEmailInsights } from "~api/email/insights";
import { EmailInsightsView } from "~/components/email/insights-view";
import { ErrorText } from "~/components/forms/fields";
import { PageHeader } from "~/components/shell/page-header";
import { Button } from "~/components/ui/button";
import { Card, CardHeader } from "~/components/ui/card";
import { Input } from "~/components/ui/input";
import { Label } from "~/components/ui/label";
import { AccountField, AccountMatches, hrefOf } from "~/components/whatsapp/admin-reports";
import type { Lng } from "~/lib/i18n";
import { staffPeriodReport } from "~/lib/whatsapp-admin.server";
import type { RootData } from "~/root";

export const handle = { crumb: "emailInsights:adminCrumb" };
const PATH = "/admin/email/reports/insights";

export async function loader({ request }: LoaderFunctionArgs) {
  const {
    report: insights,
    values,
    filter,
    errors,
  } = await staffPeriodReport(request, emailStaffCheck("insights"), async (ctx, input) => (await adminEmailInsights(ctx, input)).data);
  return json({ insights, values, filter, errors }, { headers: { "Cache-Control": "private, no-store" } });
}

export default function AdminEmailInsights() {
  const { insights: i, values, errors, filter } = useLoaderData<typeof loader>();
  const lng = (useRouteLoaderData<RootData>("root")?.lng ?? "pt-BR") as Lng;
  const { t } = useTranslation(["emailInsights", "smsReports", "admin"]);
  const period = { from: values.from || i?.from || "", to: values.to || i?.to || "" };
  return (
    <div className="space-y-6">
      <PageHeader description={t("adminDescription")} />
      <Card>
        <CardHeader>
          <Form method="get" action={PATH} aria-label={t("smsReports:range.label")} className="flex flex-wrap items-start gap-3">
            {(["from", "to"] as const).map((k) => (
              <div key={k} className="grid gap-1.5">
                <Label htmlFor={`range-${k}`}>{t(`smsReports:range.${k}`)}</Label>
                <Input id={`range-${k}`} type="date" name={k} defaultValue={period[k]} aria-invalid={errors[k]?.length ? true : undefined} />
                <ErrorText errors={errors[k]} />
              </div>
            ))}
            <AccountField filter={filter} />
            <Button type="submit" variant="secondary" className="mt-6">
              {t("smsReports:range.submit")}
            </Button>
          </Form>
        </CardHeader>
      </Card>
      <AccountMatches matches={filter.matches} href={(a) => hrefOf(PATH, { ...period, account: a.name, account_id: a.id })} />
      {i ? (
        <>
          {i.account ? <p className="text-sm text-muted-foreground">{t("ofAccount", { name: i.account.name })}</p> : null}
          <EmailInsightsView insights={i} lng={lng} />
        </>
      ) : null}
    </div>
  );
}
