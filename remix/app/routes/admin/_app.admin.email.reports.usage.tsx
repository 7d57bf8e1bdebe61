/**
 * /admin/email/reports/usage (platform staff): every account's (or one account's) e-mails and their
 * cost per São Paulo day of a period (a GET form: default this month so far, at most 31); costs are
 * one amount per currency. Below, the accounts with the most e-mails of the period.
 */
import { json, type LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData, useRouteLoaderData } from "@remix-run/react";
import { useTranslation } from "~/lib/react-i18n";
import { adminEmailUsage, emailStaffCheck } from "~api/email/admin-reports";
import { FiguresTable } from "~/components/charts/figures-table";
import { EmailAccountsCard, StaffPeriodFilter } from "~/components/email/admin-reports";
import { PageHeader } from "~/components/shell/page-header";
import { Figures } from "~/components/sms-reports/figures";
import { formatCount, formatDay } from "~/components/sms-reports/format";
import { Card, CardContent } from "~/components/ui/card";
import { formatAmounts, hrefOf } from "~/components/whatsapp/admin-reports";
import type { Lng } from "~/lib/i18n";
import { staffPeriodReport } from "~/lib/whatsapp-admin.server";
import type { RootData } from "~/root";

export const handle = { crumb: "emailReports:crumbs.adminUsage" };

const PATH = "/admin/email/reports/usage";

export async function loader({ request }: LoaderFunctionArgs) {
  const { report: usage, values, filter, errors } = await staffPeriodReport(request, emailStaffCheck("usage"), adminEmailUsage);
  return json({ usage, values, filter, errors }, { headers: { "Cache-Control": "private, no-store" } });
}

export default function AdminEmailUsageScreen() {
  const { usage, values, filter, errors } = useLoaderData<typeof loader>();
  const lng = (useRouteLoaderData<RootData>("root")?.lng ?? "pt-BR") as Lng;
  const { t } = useTranslation(["emailReports", "smsReports"]);
  const period = { from: values.from || usage?.from || "", to: values.to || usage?.to || "" };
  const of = (a: { id: string; name: string }) => hrefOf(PATH, { ...period, account: a.name, account_id: a.id });
  return (
    <div className="space-y-6">
      <PageHeader description={t("admin.usageDescription")} />
      <StaffPeriodFilter path={PATH} period={period} errors={errors} filter={filter} account={usage?.account} />
      {usage ? (
        <>
          <Figures
            items={[
              { key: "messages", label: t("dashboard.messages"), value: formatCount(usage.totals.messages, lng) },
              { key: "cost", label: t("dashboard.cost"), value: formatAmounts(usage.totals.cost, lng) },
            ]}
          />
          <Card>
            <CardContent className="pt-6">
              <FiguresTable
                head={t("dashboard.day")}
                rows={usage.data}
                rowKey={(d) => d.day}
                rowLabel={(d) => formatDay(d.day, lng, true)}
                rowAttr="day"
                columns={[
                  { key: "messages", label: t("dashboard.messages"), value: (d) => formatCount(d.messages, lng) },
                  { key: "cost", label: t("dashboard.cost"), value: (d) => formatAmounts(d.cost, lng) },
                ]}
                totals={{ label: t("smsReports:days.totals"), row: { day: "total", ...usage.totals } }}
              />
            </CardContent>
          </Card>
          <EmailAccountsCard rows={usage.accounts} lng={lng} href={of} />
        </>
      ) : null}
    </div>
  );
}
