/**
 * /mail/reports: the account's e-mail statistics of a period (a GET form: default the last 7 São
 * Paulo days, at most 31): per day per status (delivered, opened, clicked, bounced…) as a chart and
 * a table with the cost, and the e-mail campaigns created in the period with their e-mails by
 * outcome. The Export button posts the period (CSRF, no JavaScript needed): an export of the
 * e-mail history of those days, then /mail/exports.
 */
import { type ActionFunctionArgs, json, type LoaderFunctionArgs } from "@remix-run/node";
import { Form, Link, useLoaderData, useRouteLoaderData } from "@remix-run/react";
import { useTranslation } from "~/lib/react-i18n";
import { emailCampaignReport, emailStat } from "~api/email/figures";
import { isAppError } from "~api/lib/errors";
import { MAX_LIMIT } from "~api/lib/page";
import { can } from "~api/policy/policy";
import { EmailDayChart, EmailGroupCells, EmailGroupHeads, EmailStatusTable } from "~/components/email/day-figures";
import { CsrfInput } from "~/components/forms/fields";
import { PageHeader } from "~/components/shell/page-header";
import { formatCount } from "~/components/sms-reports/format";
import { RangeForm } from "~/components/sms-reports/range-form";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "~/components/ui/card";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "~/components/ui/table";
import { requireRoute } from "~/lib/auth.server";
import { formatDate, formatMoney } from "~/lib/format";
import type { Lng } from "~/lib/i18n";
import { historyExportAction } from "~/lib/sms-reports.server";
import type { RootData } from "~/root";

export const handle = { crumb: "emailReports:crumbs.reports" };

export async function loader({ request }: LoaderFunctionArgs) {
  const ctx = await requireRoute(request);
  const params = new URL(request.url).searchParams;
  const values = { from: params.get("from")?.trim() ?? "", to: params.get("to")?.trim() ?? "" };
  const canExport = can(ctx.actor, "/mail/exports");
  try {
    const stat = await emailStat(ctx, values);
    const campaigns = await emailCampaignReport(ctx, { from: stat.from, to: stat.to, limit: MAX_LIMIT });
    return json({ stat, campaigns, values, errors: {} as Record<string, string[]>, canExport }, { headers: { "Cache-Control": "private, no-store" } });
  } catch (e) {
    if (!isAppError(e) || e.code !== "VALIDATION") throw e;
    return json({ stat: null, campaigns: null, values, errors: (e.fields ?? {}) as Record<string, string[]>, canExport });
  }
}

/** The Export button: the e-mail history of the period shown (the history's export job, channel email), then /mail/exports. */
export const action = ({ request }: ActionFunctionArgs) => historyExportAction(request, "/mail/exports", "email");

export default function MailReports() {
  const { stat, campaigns, values, errors, canExport } = useLoaderData<typeof loader>();
  const lng = (useRouteLoaderData<RootData>("root")?.lng ?? "pt-BR") as Lng;
  const { t } = useTranslation(["emailReports", "smsReports"]);
  const period = { from: values.from || stat?.from || "", to: values.to || stat?.to || "" };
  return (
    <div className="space-y-6">
      <PageHeader
        description={t("reports.description")}
        actions={
          canExport && stat ? (
            <>
              <Form method="post" action="/mail/reports">
                <CsrfInput />
                <input type="hidden" name="start" value={stat.from} />
                <input type="hidden" name="end" value={stat.to} />
                <Button type="submit">{t("reports.export")}</Button>
              </Form>
              <Button asChild variant="outline">
                <Link to="/mail/exports">{t("smsReports:history.exportsLink")}</Link>
              </Button>
            </>
          ) : null
        }
      />
      <Card>
        <CardHeader>
          <RangeForm action="/mail/reports" values={period} errors={errors} />
        </CardHeader>
        {stat ? (
          <CardContent className="space-y-6" data-report="days">
            <EmailDayChart data={stat.data} lng={lng} label={t("reports.chart")} />
            <EmailStatusTable rows={stat.data} totals={stat.totals} lng={lng} currency={stat.currency} />
          </CardContent>
        ) : null}
      </Card>
      {campaigns ? (
        <Card data-report="campaigns">
          <CardHeader>
            <CardTitle>
              <h2>{t("reports.campaigns")}</h2>
            </CardTitle>
          </CardHeader>
          <CardContent>
            {campaigns.data.length === 0 ? (
              <p className="py-8 text-center text-sm text-muted-foreground">{t("smsReports:campaign.empty")}</p>
            ) : (
              <Table>
                <TableHeader>
                  <TableRow>
                    <TableHead>{t("smsReports:campaign.name")}</TableHead>
                    <TableHead>{t("smsReports:campaign.created")}</TableHead>
                    <TableHead>{t("smsReports:campaign.state")}</TableHead>
                    <TableHead className="text-right">{t("dashboard.messages")}</TableHead>
                    <EmailGroupHeads />
                    <TableHead className="text-right">{t("dashboard.cost")}</TableHead>
                  </TableRow>
                </TableHeader>
                <TableBody>
                  {campaigns.data.map((c) => (
                    <TableRow key={c.id} data-campaign-id={c.id}>
                      <TableCell>
                        <Link to={`/mail/campaigns/${c.id}`} className="text-primary hover:underline">
                          {c.name || t("smsReports:campaign.unnamed")}
                        </Link>
                      </TableCell>
                      <TableCell className="whitespace-nowrap">{formatDate(c.created_at, lng, true)}</TableCell>
                      <TableCell>{t(`smsReports:campaign.states.${c.status}`)}</TableCell>
                      <TableCell className="text-right tabular-nums" data-col="total">
                        {formatCount(c.messages, lng)}
                      </TableCell>
                      <EmailGroupCells statuses={c.statuses} lng={lng} />
                      <TableCell className="text-right tabular-nums" data-col="cost">
                        {formatMoney(c.cost, campaigns.currency, lng)}
                      </TableCell>
                    </TableRow>
                  ))}
                </TableBody>
              </Table>
            )}
          </CardContent>
        </Card>
      ) : null}
    </div>
  );
}
