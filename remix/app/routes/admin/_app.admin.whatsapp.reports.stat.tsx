/**
 * /admin/whatsapp/reports/stat (platform staff): every account's WhatsApp statistics of a period
 * (a GET form: default the last 7 São Paulo days, at most 31), or one account's (the account
 * field): per day messages, delivered, read and failed; per Meta pricing category count and cost;
 * the accounts with the most messages and their cost (a name opens that account's figures).
 */
import { json, type LoaderFunctionArgs } from "@remix-run/node";
import { Link, useLoaderData, useRouteLoaderData } from "@remix-run/react";
import { useTranslation } from "~/lib/react-i18n";
import { adminWhatsappStat, assertWhatsappStaff } from "~api/whatsapp/admin-reports";
import { FiguresTable } from "~/components/charts/figures-table";
import { formatCount } from "~/components/sms-reports/format";
import { RangeForm } from "~/components/sms-reports/range-form";
import { PageHeader } from "~/components/shell/page-header";
import { Card, CardContent, CardHeader, CardTitle } from "~/components/ui/card";
import { AccountField, AccountMatches, DayFigures, formatAmounts, hrefOf } from "~/components/whatsapp/admin-reports";
import { formatMoney } from "~/lib/format";
import type { Lng } from "~/lib/i18n";
import { staffPeriodReport } from "~/lib/whatsapp-admin.server";
import type { RootData } from "~/root";

export const handle = { crumb: "admin:whatsappReports.statTitle" };

const PATH = "/admin/whatsapp/reports/stat";

export async function loader({ request }: LoaderFunctionArgs) {
  const { report: stat, values, filter, errors } = await staffPeriodReport(request, (c) => assertWhatsappStaff(c, "stat"), adminWhatsappStat);
  return json({ stat, values, filter, errors }, { headers: { "Cache-Control": "private, no-store" } });
}

export default function AdminWhatsappStatScreen() {
  const { stat, values, filter, errors } = useLoaderData<typeof loader>();
  const lng = (useRouteLoaderData<RootData>("root")?.lng ?? "pt-BR") as Lng;
  const { t } = useTranslation(["admin", "whatsapp"]);
  const n = (v: number) => formatCount(v, lng);
  const period = { from: values.from || stat?.from || "", to: values.to || stat?.to || "" };
  const of = (a: { id: string; name: string }) => hrefOf(PATH, { ...period, account: a.name, account_id: a.id });
  return (
    <div className="space-y-6">
      <PageHeader description={t("whatsappReports.statDescription")} />
      <Card>
        <CardHeader>
          <RangeForm action={PATH} values={period} errors={errors}>
            <AccountField filter={filter} />
          </RangeForm>
        </CardHeader>
        {stat ? (
          <CardContent className="space-y-6">
            {stat.account ? <p className="text-sm text-muted-foreground">{t("whatsappReports.ofAccount", { name: stat.account.name })}</p> : null}
            <DayFigures rows={stat.data} lng={lng} />
          </CardContent>
        ) : null}
      </Card>
      <AccountMatches matches={filter.matches} href={of} />
      {stat ? (
        <div className="grid gap-6 lg:grid-cols-2">
          <Card data-report="category">
            <CardHeader>
              <CardTitle>{t("whatsapp:reports.byCategory")}</CardTitle>
            </CardHeader>
            <CardContent>
              <FiguresTable
                head={t("whatsapp:reports.category")}
                rows={stat.categories}
                rowKey={(r) => r.category}
                rowLabel={(r) => t(`whatsapp:category.${r.category}`)}
                rowAttr="category"
                columns={[
                  { key: "messages", label: t("whatsapp:reports.messages"), value: (r) => n(r.messages) },
                  { key: "cost", label: t("whatsapp:reports.cost"), value: (r) => formatAmounts(r.cost, lng) },
                ]}
                totals={{ label: t("whatsapp:reports.total"), row: { category: "total" as never, ...stat.category_totals } }}
              />
            </CardContent>
          </Card>
          <Card data-report="accounts" className="lg:col-span-2">
            <CardHeader>
              <CardTitle>{t("whatsappReports.byAccount")}</CardTitle>
            </CardHeader>
            <CardContent>
              {stat.accounts.length === 0 ? (
                <p className="text-sm text-muted-foreground">{t("whatsappReports.noMessages")}</p>
              ) : (
                <FiguresTable
                  head={t("whatsappReports.account")}
                  rows={stat.accounts}
                  rowKey={(r) => r.account.id}
                  rowLabel={(r) => (
                    <Link to={of(r.account)} className="text-primary hover:underline">
                      {r.account.name}
                    </Link>
                  )}
                  rowAttr="account"
                  columns={[
                    { key: "messages", label: t("whatsapp:reports.messages"), value: (r) => n(r.messages) },
                    { key: "delivered", label: t("whatsapp:reports.delivered"), value: (r) => n(r.delivered) },
                    { key: "read", label: t("whatsapp:reports.read"), value: (r) => n(r.read) },
                    { key: "failed", label: t("whatsapp:reports.failed"), value: (r) => n(r.failed) },
                    { key: "cost", label: t("whatsapp:reports.cost"), value: (r) => formatMoney(r.cost, r.currency, lng) },
                  ]}
                />
              )}
            </CardContent>
          </Card>
        </div>
      ) : null}
    </div>
  );
}
