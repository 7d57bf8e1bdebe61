/**
 * /admin/email/reports/stat (platform staff): every account's e-mail statistics of a period (a GET
 * form: default the last 7 São Paulo days, at most 31), or one account's (the account field): per
 * day per status as a chart and a table, the cost per currency, and the accounts with the most
 * e-mails (a name opens that account's figures).
 */
import { json, type LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData, useRouteLoaderData } from "@remix-run/react";
import { useTranslation } from "~/lib/react-i18n";
import { adminEmailStat, emailStaffCheck } from "~api/email/admin-reports";
import { EmailAccountsCard, StaffPeriodFilter } from "~/components/email/admin-reports";
import { EmailDayChart, EmailStatusTable } from "~/components/email/day-figures";
import { PageHeader } from "~/components/shell/page-header";
import { Figures } from "~/components/sms-reports/figures";
import { formatCount } from "~/components/sms-reports/format";
import { Card, CardContent } from "~/components/ui/card";
import { formatAmounts, hrefOf } from "~/components/whatsapp/admin-reports";
import type { Lng } from "~/lib/i18n";
import { staffPeriodReport } from "~/lib/whatsapp-admin.server";
import type { RootData } from "~/root";

export const handle = { crumb: "emailReports:crumbs.adminStat" };

const PATH = "/admin/email/reports/stat";

export async function loader({ request }: LoaderFunctionArgs) {
  const { report: stat, values, filter, errors } = await staffPeriodReport(request, emailStaffCheck("stat"), adminEmailStat);
  return json({ stat, values, filter, errors }, { headers: { "Cache-Control": "private, no-store" } });
}

export default function AdminEmailStatScreen() {
  const { stat, values, filter, errors } = useLoaderData<typeof loader>();
  const lng = (useRouteLoaderData<RootData>("root")?.lng ?? "pt-BR") as Lng;
  const { t } = useTranslation("emailReports");
  const period = { from: values.from || stat?.from || "", to: values.to || stat?.to || "" };
  const of = (a: { id: string; name: string }) => hrefOf(PATH, { ...period, account: a.name, account_id: a.id });
  return (
    <div className="space-y-6">
      <PageHeader description={t("admin.statDescription")} />
      <StaffPeriodFilter path={PATH} period={period} errors={errors} filter={filter} account={stat?.account} />
      {stat ? (
        <>
          <Figures
            items={[
              { key: "messages", label: t("dashboard.messages"), value: formatCount(stat.totals.total, lng) },
              { key: "cost", label: t("dashboard.cost"), value: formatAmounts(stat.cost, lng) },
            ]}
          />
          <Card>
            <CardContent className="space-y-6 pt-6" data-report="days">
              <EmailDayChart data={stat.data} lng={lng} label={t("reports.chart")} />
              <EmailStatusTable rows={stat.data} totals={stat.totals} lng={lng} />
            </CardContent>
          </Card>
          <EmailAccountsCard rows={stat.accounts} lng={lng} href={of} />
        </>
      ) : null}
    </div>
  );
}
