/**
 * The e-mail insights' figures (/mail/insights and platform staff's /admin/email/reports/insights;
 * api/email/insights.ts): totals and rates, opens and clicks per day (server-drawn bars and the table
 * beside them), by recipient domain, and the click map per link. No JavaScript needed.
 */
import { useTranslation } from "~/lib/react-i18n";
import type { EmailInsights } from "~api/email/insights";
import { DayBars } from "~/components/charts/day-bars";
import { FiguresTable } from "~/components/charts/figures-table";
import { Figures } from "~/components/sms-reports/figures";
import { formatCount, formatDay, formatPercent } from "~/components/sms-reports/format";
import { Card, CardContent, CardDescription, CardHeader } from "~/components/ui/card";
import type { Lng } from "~/lib/i18n";

type Counts = Pick<EmailInsights["totals"], "sent" | "delivered" | "opens" | "unique_opens" | "clicks" | "unique_clicks">;
const COLUMNS = ["sent", "delivered", "opens", "unique_opens", "clicks", "unique_clicks"] as const;
const LABEL: Record<(typeof COLUMNS)[number], string> = {
  sent: "figures.sent",
  delivered: "figures.delivered",
  opens: "figures.opens",
  unique_opens: "figures.uniqueOpens",
  clicks: "figures.clicks",
  unique_clicks: "figures.uniqueClicks",
};

export function EmailInsightsView({ insights: i, lng }: { insights: Omit<EmailInsights, "account"> & { account: { id: string; name: string } | null }; lng: Lng }) {
  const { t } = useTranslation("emailInsights");
  const n = (v: number) => formatCount(v, lng);
  const columns = COLUMNS.map((k) => ({ key: k, label: t(LABEL[k]), value: (r: Counts) => n(r[k]) }));
  return (
    <div className="space-y-6">
      <Figures
        items={[
          ...COLUMNS.map((k) => ({ key: k, label: t(LABEL[k]), value: n(i.totals[k]) })),
          { key: "open_rate", label: t("figures.openRate"), value: formatPercent(i.totals.open_rate, lng) },
          { key: "click_rate", label: t("figures.clickRate"), value: formatPercent(i.totals.click_rate, lng) },
          { key: "click_to_open_rate", label: t("figures.clickToOpenRate"), value: formatPercent(i.totals.click_to_open_rate, lng) },
        ]}
      />
      <Card>
        <CardHeader>
          <h2 className="leading-none font-semibold">{t("chart")}</h2>
        </CardHeader>
        <CardContent className="space-y-6">
          <DayBars
            data={i.days}
            lng={lng}
            label={t("chart")}
            series={[
              { key: "opens", label: t("figures.opens"), className: "fill-primary" },
              { key: "clicks", label: t("figures.clicks"), className: "fill-success" },
            ]}
            barTitle={(total) => t("chartBar", { count: total })}
            totalOf={(d) => Number(d.opens) + Number(d.clicks)}
          />
          <FiguresTable<Counts & { day: string }>
            head={t("day")}
            rows={i.days}
            rowKey={(d) => d.day}
            rowLabel={(d) => formatDay(d.day, lng)}
            rowAttr="day"
            columns={columns}
            totals={{ label: t("total"), row: { ...i.totals, day: "total" } }}
          />
        </CardContent>
      </Card>
      <div className="space-y-6">
        <Card data-testid="by-domain">
          <CardHeader>
            <h2 className="leading-none font-semibold">{t("domains.title")}</h2>
            <CardDescription>{t("domains.description")}</CardDescription>
          </CardHeader>
          <CardContent>
            {i.domains.length ? (
              <FiguresTable head={t("domains.domain")} rows={i.domains} rowKey={(d) => d.domain} rowLabel={(d) => d.domain} rowAttr="domain" columns={columns} />
            ) : (
              <p className="py-4 text-sm text-muted-foreground">{t("domains.empty")}</p>
            )}
          </CardContent>
        </Card>
        <Card data-testid="click-map">
          <CardHeader>
            <h2 className="leading-none font-semibold">{t("links.title")}</h2>
            <CardDescription>{t("links.description")}</CardDescription>
          </CardHeader>
          <CardContent>
            {i.links.length ? (
              <FiguresTable
                head={t("links.link")}
                rows={i.links}
                rowKey={(l) => l.url}
                rowLabel={(l) => <span className="break-all">{l.url}</span>}
                rowAttr="link"
                columns={[
                  { key: "clicks", label: t("links.clicks"), value: (l) => n(l.clicks) },
                  { key: "unique", label: t("links.unique"), value: (l) => n(l.unique) },
                ]}
              />
            ) : (
              <p className="py-4 text-sm text-muted-foreground">{t("links.empty")}</p>
            )}
          </CardContent>
        </Card>
      </div>
    </div>
  );
}
