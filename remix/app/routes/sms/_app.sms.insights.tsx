/** /sms/insights: totals of a period (default today, at most 31 days), delivery rate, top error codes and carriers. */
import { json, type LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData, useRouteLoaderData } from "@remix-run/react";
import { useTranslation } from "~/lib/react-i18n";
import { isAppError } from "~api/lib/errors";
import { smsInsights, type Insights } from "~api/sms/reports";
import { CarriersTable } from "~/components/sms-reports/carriers-table";
import { Figures } from "~/components/sms-reports/figures";
import { formatCount, formatPercent } from "~/components/sms-reports/format";
import { KNOWN_ERROR_CODES } from "~/components/sms-reports/message-detail";
import { RangeForm } from "~/components/sms-reports/range-form";
import { PageHeader } from "~/components/shell/page-header";
import { Card, CardContent, CardHeader, CardTitle } from "~/components/ui/card";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "~/components/ui/table";
import { requireRoute } from "~/lib/auth.server";
import { formatMoney } from "~/lib/format";
import type { RootData } from "~/root";

export const handle = { crumb: "smsReports:crumbs.insights" };

export async function loader({ request }: LoaderFunctionArgs) {
  const ctx = await requireRoute(request);
  const params = new URL(request.url).searchParams;
  const values = { from: params.get("from")?.trim() ?? "", to: params.get("to")?.trim() ?? "" };
  let insights: Insights | null = null;
  let errors: Record<string, string[]> = {};
  try {
    insights = await smsInsights(ctx, values);
  } catch (e) {
    if (!isAppError(e) || e.code !== "VALIDATION") throw e;
    errors = e.fields ?? {};
  }
  return json({ insights, values, errors }, { headers: { "Cache-Control": "private, no-store" } });
}

export default function SmsInsights() {
  const { insights: i, values, errors } = useLoaderData<typeof loader>();
  const lng = useRouteLoaderData<RootData>("root")?.lng ?? "pt-BR";
  const { t } = useTranslation("smsReports");
  const n = (v: number) => formatCount(v, lng);
  return (
    <div className="space-y-6">
      <PageHeader description={t("insights.description")} />
      <Card>
        <CardHeader>
          <RangeForm action="/sms/insights" values={{ from: values.from || i?.from || "", to: values.to || i?.to || "" }} errors={errors} />
        </CardHeader>
      </Card>
      {i ? (
        <>
          <Figures
            items={[
              { key: "messages", label: t("insights.messages"), value: n(i.messages) },
              { key: "sent", label: t("insights.sent"), value: n(i.sent) },
              { key: "delivered", label: t("insights.delivered"), value: n(i.delivered) },
              { key: "deliveryRate", label: t("insights.deliveryRate"), value: formatPercent(i.delivery_rate, lng) },
              { key: "failed", label: t("insights.failed"), value: n(i.failed) },
              { key: "unavailable", label: t("insights.unavailable"), value: n(i.unavailable) },
              { key: "rejected", label: t("insights.rejected"), value: n(i.rejected) },
              { key: "waiting", label: t("insights.waiting"), value: n(i.waiting) },
              { key: "segments", label: t("insights.segments"), value: n(i.segments) },
              { key: "cost", label: t("insights.cost"), value: formatMoney(i.cost, i.currency, lng) },
              { key: "received", label: t("insights.received"), value: n(i.received) },
            ]}
          />
          <div className="grid gap-6 lg:grid-cols-2">
            <Card>
              <CardHeader>
                <CardTitle>{t("insights.topErrors")}</CardTitle>
              </CardHeader>
              <CardContent>
                {i.top_errors.length === 0 ? (
                  <p className="text-sm text-muted-foreground">{t("insights.noErrors")}</p>
                ) : (
                  <Table>
                    <TableHeader>
                      <TableRow>
                        <TableHead>{t("insights.errorCode")}</TableHead>
                        <TableHead>{t("insights.errorReason")}</TableHead>
                        <TableHead className="text-right">{t("insights.errorCount")}</TableHead>
                      </TableRow>
                    </TableHeader>
                    <TableBody>
                      {i.top_errors.map((e) => (
                        <TableRow key={e.error_code} data-error-code={e.error_code}>
                          <TableCell>
                            <code>{e.error_code}</code>
                          </TableCell>
                          <TableCell>{(KNOWN_ERROR_CODES as readonly string[]).includes(e.error_code) ? t(`errorCodes.${e.error_code}`) : "—"}</TableCell>
                          <TableCell className="text-right tabular-nums">{n(e.count)}</TableCell>
                        </TableRow>
                      ))}
                    </TableBody>
                  </Table>
                )}
              </CardContent>
            </Card>
            <Card>
              <CardHeader>
                <CardTitle>{t("carriers.title")}</CardTitle>
              </CardHeader>
              <CardContent>
                <CarriersTable rows={i.carriers} lng={lng} />
              </CardContent>
            </Card>
          </div>
        </>
      ) : null}
    </div>
  );
}
