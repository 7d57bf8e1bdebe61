/**
 * A channel's campaigns (20 a page) with status, total, progress and per-status counts:
 * /sms/campaigns, /whatsapp/campaigns…; and /campaigns, every channel the person may read in one
 * list with a channel column and filter, each row linking to its channel's page.
 */
import { Form, Link, useLoaderData, useRouteLoaderData } from "@remix-run/react";
import { useTranslation } from "~/lib/react-i18n";
import { CAMPAIGN_STATUSES } from "~api/campaigns/constants";
import { CampaignStatusBadge, ProgressBar, StatusCounts } from "~/components/campaigns/campaign-parts";
import { PageHeader } from "~/components/shell/page-header";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader } from "~/components/ui/card";
import { NativeSelect } from "~/components/ui/native-select";
import { Pager } from "~/components/ui/pager";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "~/components/ui/table";
import type { campaignsLoader } from "~/lib/campaigns.server";
import { formatDate } from "~/lib/format";
import { intlLocale } from "~/lib/i18n";
import type { RootData } from "~/root";

/** The campaigns list of the route's channel; `empty`: the locale key of the empty list's sentence. */
export function CampaignsScreen({ empty = "smsOps:campaigns.empty" }: { empty?: string }) {
  const { data, page, last_page, total, status, base, all, channels, channel, bases } = useLoaderData<typeof campaignsLoader>();
  const lng = useRouteLoaderData<RootData>("root")?.lng ?? "pt-BR";
  const { t } = useTranslation(["smsOps", "common"]);
  const fmt = (v: number) => new Intl.NumberFormat(intlLocale[lng]).format(v);
  const hrefFor = (p: number) => {
    const params = new URLSearchParams();
    if (status) params.set("status", status);
    if (channel) params.set("channel", channel);
    if (p > 1) params.set("page", String(p));
    const s = params.toString();
    return s ? `${base}/campaigns?${s}` : `${base}/campaigns`;
  };
  return (
    <div className="space-y-6">
      <PageHeader description={t(all ? "campaigns.allDescription" : "campaigns.description")} />
      <Card>
        <CardHeader className="gap-4">
          <Form method="get" action={`${base}/campaigns`} className="flex flex-wrap items-end gap-2">
            <div className="space-y-1">
              <label htmlFor="campaign-status" className="text-sm font-medium">
                {t("campaigns.filter.label")}
              </label>
              <NativeSelect id="campaign-status" name="status" defaultValue={status}>
                <option value="">{t("campaigns.filter.all")}</option>
                {CAMPAIGN_STATUSES.map((s) => (
                  <option key={s} value={s}>
                    {t(`campaigns.status.${s}`)}
                  </option>
                ))}
              </NativeSelect>
            </div>
            {all ? (
              <div className="space-y-1">
                <label htmlFor="campaign-channel" className="text-sm font-medium">
                  {t("campaigns.filter.channel")}
                </label>
                <NativeSelect id="campaign-channel" name="channel" defaultValue={channel}>
                  <option value="">{t("campaigns.filter.allChannels")}</option>
                  {channels.map((ch) => (
                    <option key={ch} value={ch}>
                      {t(`campaigns.channels.${ch}`)}
                    </option>
                  ))}
                </NativeSelect>
              </div>
            ) : null}
            <Button type="submit" variant="secondary">
              {t("campaigns.filter.submit")}
            </Button>
          </Form>
          <CardDescription>{t("campaigns.total", { count: total })}</CardDescription>
        </CardHeader>
        <CardContent className="space-y-4">
          {data.length === 0 ? (
            <p className="py-8 text-center text-sm text-muted-foreground">{status || channel ? t("campaigns.emptyFiltered") : t(all ? "campaigns.allEmpty" : empty)}</p>
          ) : (
            <Table data-testid="campaigns-table">
              <TableHeader>
                <TableRow>
                  <TableHead>{t("campaigns.columns.name")}</TableHead>
                  {all ? <TableHead>{t("campaigns.columns.channel")}</TableHead> : null}
                  <TableHead>{t("campaigns.columns.created")}</TableHead>
                  <TableHead>{t("campaigns.columns.status")}</TableHead>
                  <TableHead className="text-right">{t("campaigns.columns.total")}</TableHead>
                  <TableHead className="min-w-40">{t("campaigns.columns.progress")}</TableHead>
                  <TableHead>{t("campaigns.columns.counts")}</TableHead>
                </TableRow>
              </TableHeader>
              <TableBody>
                {data.map((c) => (
                  <TableRow key={c.id} data-campaign={c.id}>
                    <TableCell className="font-medium">
                      <Link to={`${all ? bases[c.channel as keyof typeof bases] : base}/campaigns/${c.id}`} className="underline-offset-4 hover:underline">
                        {c.name || t("campaigns.unnamed")}
                      </Link>
                    </TableCell>
                    {all ? <TableCell data-channel={c.channel}>{t(`campaigns.channels.${c.channel}`)}</TableCell> : null}
                    <TableCell className="whitespace-nowrap">{formatDate(c.created_at, lng, true)}</TableCell>
                    <TableCell>
                      <CampaignStatusBadge status={c.status} />
                    </TableCell>
                    <TableCell className="text-right tabular-nums">{fmt(c.total)}</TableCell>
                    <TableCell>
                      <ProgressBar percent={c.progress} label={t("campaigns.progress", { percent: c.progress, done: fmt(c.done), total: fmt(Math.max(c.total, c.done)) })} />
                    </TableCell>
                    <TableCell>
                      <StatusCounts counts={c.counts} compact />
                    </TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          )}
          <Pager
            page={page}
            pageCount={last_page}
            hrefFor={hrefFor}
            aria-label={t("common:pager.label")}
            labels={{ previous: t("common:pager.previous"), next: t("common:pager.next"), page: (n) => t("common:pager.page", { n }), more: t("common:pager.more") }}
          />
        </CardContent>
      </Card>
    </div>
  );
}
