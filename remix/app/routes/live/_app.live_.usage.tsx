/**
 * /live/usage: conversations and messages of a month (GET form, default this month) per day — a
 * server-drawn chart and its table — and per channel, with the account's live chat plan.
 */
import { json, type LoaderFunctionArgs } from "@remix-run/node";
import { Form, useLoaderData, useRouteLoaderData } from "@remix-run/react";
import { useTranslation } from "~/lib/react-i18n";
import { liveUsage, saoPauloDay } from "~api/live/reports";
import { DayBars } from "~/components/charts/day-bars";
import { FiguresTable } from "~/components/charts/figures-table";
import { ErrorText } from "~/components/forms/fields";
import { Figures } from "~/components/sms-reports/figures";
import { formatCount, formatDay } from "~/components/sms-reports/format";
import { PageHeader } from "~/components/shell/page-header";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "~/components/ui/card";
import { Input } from "~/components/ui/input";
import { Label } from "~/components/ui/label";
import { requireRoute } from "~/lib/auth.server";
import { formatDate, formatMoney } from "~/lib/format";
import { withFieldErrors } from "~/lib/live-reports.server";
import type { RootData } from "~/root";

export const handle = { crumb: "liveReports:crumbs.usage" };

export async function loader({ request }: LoaderFunctionArgs) {
  const ctx = await requireRoute(request);
  const month = new URL(request.url).searchParams.get("month")?.trim() || saoPauloDay().slice(0, 7);
  const { value: usage, errors } = await withFieldErrors(() => liveUsage(ctx, { month }));
  return json({ month, usage, errors }, { headers: { "Cache-Control": "private, no-store" } });
}

export default function LiveUsage() {
  const { month, usage, errors } = useLoaderData<typeof loader>();
  const lng = useRouteLoaderData<RootData>("root")?.lng ?? "pt-BR";
  const { t } = useTranslation("liveReports");
  const n = (v: number) => formatCount(v, lng);
  return (
    <div className="space-y-6">
      <PageHeader description={t("usage.description")} />
      <Form method="get" action="/live/usage" className="flex flex-wrap items-start gap-3">
        <div className="grid gap-1.5">
          <Label htmlFor="usage-month">{t("usage.month")}</Label>
          <Input id="usage-month" type="month" name="month" defaultValue={month} aria-invalid={errors.month?.length ? true : undefined} />
          <ErrorText errors={errors.month} />
        </div>
        <Button type="submit" variant="secondary" className="mt-6">
          {t("usage.submit")}
        </Button>
      </Form>
      {usage ? (
        <>
          <Figures
            items={[
              { key: "rooms", label: t("usage.rooms"), value: n(usage.totals.rooms) },
              { key: "messages", label: t("usage.messages"), value: n(usage.totals.messages) },
            ]}
          />
          <Card>
            <CardHeader>
              <CardTitle>{t("usage.perDay")}</CardTitle>
            </CardHeader>
            <CardContent className="space-y-6">
              <DayBars
                data={usage.days}
                lng={lng}
                label={t("usage.chart")}
                barTitle={(count) => t("usage.roomsCount", { count })}
                series={[{ key: "rooms", label: t("usage.rooms"), className: "fill-primary" }]}
              />
              <FiguresTable
                head={t("reports.columns.day")}
                rows={usage.days}
                rowKey={(d) => d.day}
                rowLabel={(d) => formatDay(d.day, lng, true)}
                rowAttr="day"
                columns={[
                  { key: "rooms", label: t("usage.rooms"), value: (d) => n(d.rooms) },
                  { key: "messages", label: t("usage.messages"), value: (d) => n(d.messages) },
                ]}
              />
            </CardContent>
          </Card>
          <div className="grid gap-6 lg:grid-cols-2">
            <Card>
              <CardHeader>
                <CardTitle>{t("usage.perChannel")}</CardTitle>
              </CardHeader>
              <CardContent>
                {usage.channels.length === 0 ? (
                  <p className="py-4 text-sm text-muted-foreground">{t("reports.empty")}</p>
                ) : (
                  <FiguresTable
                    head={t("reports.columns.channel")}
                    rows={usage.channels}
                    rowKey={(c) => c.channel}
                    rowLabel={(c) => t(`channels.${c.channel}`)}
                    rowAttr="channel"
                    columns={[
                      { key: "rooms", label: t("usage.rooms"), value: (c) => n(c.rooms) },
                      { key: "messages", label: t("usage.messages"), value: (c) => n(c.messages) },
                    ]}
                  />
                )}
              </CardContent>
            </Card>
            <Card data-plan>
              <CardHeader>
                <CardTitle>{t("usage.plan")}</CardTitle>
              </CardHeader>
              <CardContent>
                {usage.plan ? (
                  <dl className="grid grid-cols-[auto_1fr] gap-x-6 gap-y-2 text-sm">
                    <dt className="text-muted-foreground">{t("usage.planName")}</dt>
                    <dd>{usage.plan.name}</dd>
                    <dt className="text-muted-foreground">{t("usage.price")}</dt>
                    <dd>{formatMoney(usage.plan.price, usage.plan.currency, lng)}</dd>
                    <dt className="text-muted-foreground">{t("usage.cycle")}</dt>
                    <dd>{t(`usage.cycles.${usage.plan.billing_cycle}`)}</dd>
                    <dt className="text-muted-foreground">{t("usage.since")}</dt>
                    <dd>{formatDate(usage.plan.starts_at, lng)}</dd>
                    <dt className="text-muted-foreground">{t("usage.until")}</dt>
                    <dd>{usage.plan.ends_at ? formatDate(usage.plan.ends_at, lng) : t("usage.open")}</dd>
                  </dl>
                ) : (
                  <p className="text-sm text-muted-foreground">{t("usage.noPlan")}</p>
                )}
              </CardContent>
            </Card>
          </div>
        </>
      ) : null}
    </div>
  );
}
