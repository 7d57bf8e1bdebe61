/**
 * /shortener/reports/stat: the short links' clicks over a period (default the last 30 days, at
 * most 31), all links or one: per day (a bar chart drawn on the server, and its table), per link,
 * by user agent class, country and referrer (api/shortener/stats.ts). A GET form, no JavaScript.
 */
import { json, type LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData, useRouteLoaderData } from "@remix-run/react";
import { isAppError } from "~api/lib/errors";
import { listLinks } from "~api/shortener/links";
import { clickStats } from "~api/shortener/stats";
import { DayBars } from "~/components/charts/day-bars";
import { RangeForm } from "~/components/sms-reports/range-form";
import { PageHeader } from "~/components/shell/page-header";
import { Card, CardContent, CardHeader } from "~/components/ui/card";
import { Label } from "~/components/ui/label";
import { NativeSelect, NativeSelectOption } from "~/components/ui/native-select";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "~/components/ui/table";
import { orHttpError, requireRoute } from "~/lib/auth.server";
import { useTranslation } from "~/lib/react-i18n";
import type { RootData } from "~/root";

export const handle = { crumb: "shortener:stats.title" };

export async function loader({ request }: LoaderFunctionArgs) {
  const ctx = await requireRoute(request);
  const params = new URL(request.url).searchParams;
  const values = { from: params.get("from")?.trim() ?? "", to: params.get("to")?.trim() ?? "", link_id: params.get("link_id")?.trim() ?? "" };
  // The link filter's choices: the account's newest 200 links.
  const links = (await orHttpError(listLinks(ctx, { limit: 200 }))).data.map((l) => ({ id: l.id, title: l.title, slug: l.slug }));
  try {
    return json({ stat: await clickStats(ctx, values), values, links, errors: {} as Record<string, string[]> });
  } catch (e) {
    if (isAppError(e) && e.code === "VALIDATION") return json({ stat: null, values, links, errors: (e.fields ?? {}) as Record<string, string[]> });
    if (isAppError(e)) throw new Response(e.code, { status: e.status });
    throw e;
  }
}

function CountTable({ caption, rows, label, testId }: { caption: string; rows: Array<{ key: string; label: string; clicks: number }>; label: string; testId: string }) {
  const { t } = useTranslation("shortener");
  return (
    <div className="min-w-0">
      <h2 className="mb-2 font-semibold">{caption}</h2>
      {rows.length === 0 ? (
        <p className="text-sm text-muted-foreground">{t("stats.empty")}</p>
      ) : (
        <Table region={caption} data-testid={testId}>
          <TableHeader>
            <TableRow>
              <TableHead>{label}</TableHead>
              <TableHead className="text-right">{t("stats.columns.clicks")}</TableHead>
            </TableRow>
          </TableHeader>
          <TableBody>
            {rows.map((r) => (
              <TableRow key={r.key} data-key={r.key} data-clicks={r.clicks}>
                <TableCell>{r.label}</TableCell>
                <TableCell className="text-right tabular-nums">{r.clicks}</TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      )}
    </div>
  );
}

export default function ShortenerStat() {
  const { stat, values, links, errors } = useLoaderData<typeof loader>();
  const lng = useRouteLoaderData<RootData>("root")?.lng ?? "pt-BR";
  const { t } = useTranslation("shortener");
  const region = new Intl.DisplayNames([lng], { type: "region" });
  const countryName = (code: string) => {
    try {
      return region.of(code) ?? code;
    } catch {
      return code;
    }
  };
  return (
    <div className="space-y-6">
      <PageHeader description={t("stats.description")} />
      <Card>
        <CardHeader>
          <RangeForm action="/shortener/reports/stat" values={{ from: values.from || stat?.from || "", to: values.to || stat?.to || "" }} errors={errors}>
            <div className="grid gap-1.5">
              <Label htmlFor="stat-link">{t("stats.link")}</Label>
              <NativeSelect id="stat-link" name="link_id" defaultValue={values.link_id}>
                <NativeSelectOption value="">{t("stats.allLinks")}</NativeSelectOption>
                {links.map((l) => (
                  <NativeSelectOption key={l.id} value={l.id}>
                    {l.title} ({l.slug})
                  </NativeSelectOption>
                ))}
              </NativeSelect>
            </div>
          </RangeForm>
        </CardHeader>
        {stat ? (
          <CardContent className="space-y-8">
            <p className="text-lg font-semibold" data-total={stat.total}>
              {t("stats.total", { count: stat.total })}
            </p>
            <div>
              <h2 className="mb-2 font-semibold">{t("stats.perDay")}</h2>
              <DayBars
                data={stat.per_day.map((d) => ({ day: d.day, clicks: d.clicks }))}
                series={[{ key: "clicks", label: t("stats.columns.clicks"), className: "fill-primary" }]}
                lng={lng}
                label={t("stats.perDay")}
                barTitle={(count) => t("links.clicks", { count })}
              />
            </div>
            <div className="grid grid-cols-1 gap-6 md:grid-cols-2">
              <CountTable
                caption={t("stats.perLink")}
                label={t("stats.columns.link")}
                testId="per-link"
                rows={stat.per_link.map((l) => ({ key: l.id, label: `${l.title} (${l.domain}/${l.slug})`, clicks: l.clicks }))}
              />
              <CountTable
                caption={t("stats.ua")}
                label={t("stats.columns.value")}
                testId="per-ua"
                rows={stat.ua.map((r) => ({ key: r.key, label: t(`stats.uaClass.${r.key}`), clicks: r.clicks }))}
              />
              <CountTable
                caption={t("stats.countries")}
                label={t("stats.columns.value")}
                testId="per-country"
                rows={stat.countries.map((r) => ({ key: r.key, label: r.key ? countryName(r.key) : t("stats.unknown"), clicks: r.clicks }))}
              />
              <CountTable
                caption={t("stats.referrers")}
                label={t("stats.columns.value")}
                testId="per-referrer"
                rows={stat.referrers.map((r) => ({ key: r.key, label: r.key || t("stats.direct"), clicks: r.clicks }))}
              />
            </div>
          </CardContent>
        ) : null}
      </Card>
    </div>
  );
}
