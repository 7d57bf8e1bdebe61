/**
 * /admin/audit/insights (issue 23, ADR 062): audit entries per São Paulo day over a range (the last
 * 30 days by default, at most 31) — in total (a bar chart drawn by the server), per action type and
 * per user (tables, the busiest 20 of each and the rest summed) — with /admin/audit's scoping and
 * its account and user filters. A plain GET form; no script needed.
 */
import type { LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Form, Link, useLoaderData } from "@remix-run/react";
import { useTranslation } from "~/lib/react-i18n";
import { auditInsights } from "~api/admin-audit/audit";
import { PageHeader } from "~/components/shell/page-header";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "~/components/ui/card";
import { FormErrors } from "~/components/forms/fields";
import { FilterField, hrefWith } from "~/components/admin-audit/filters";
import { searchOf, withFieldErrors } from "~/components/admin-audit/query.server";
import { requireRoute } from "~/lib/auth.server";
import { i18next } from "~/lib/i18n.server";

export const handle = { crumb: "adminAudit:insights.title" };

const FILTERS = ["account", "user", "from", "to"];

export async function loader({ request }: LoaderFunctionArgs) {
  const ctx = await requireRoute(request);
  const filters = searchOf(request, FILTERS);
  const lng = await i18next.getLocale(request);
  const { result, errors } = await withFieldErrors(() => auditInsights(ctx, filters, lng));
  return json({ filters, errors, insights: result }, { headers: { "Cache-Control": "private, no-store" } });
}

type Series = { key: string; label: string; counts: number[]; total: number };

function SeriesTable({
  caption,
  days,
  top,
  others,
  othersLabel,
  labelOf,
  name,
}: {
  caption: string;
  days: string[];
  top: Series[];
  others: Series | null;
  othersLabel: string;
  labelOf: (s: Series) => string;
  name: string;
}) {
  const { t } = useTranslation("adminAudit");
  const rows = [...top.map((s) => ({ ...s, label: labelOf(s) })), ...(others ? [{ ...others, key: "", label: othersLabel }] : [])];
  return (
    // A named region a keyboard can focus and scroll sideways, as ui/table's `region` (a column a day is wider than a phone; axe's scrollable-region-focusable).
    <div className="overflow-x-auto" {...{ role: "region", "aria-label": caption, tabIndex: 0 }}>
      <table className="w-full text-xs" data-table={name}>
        <caption className="sr-only">{caption}</caption>
        <thead>
          <tr className="text-left text-muted-foreground">
            <th className="py-1 pr-2">{t("insights.name")}</th>
            <th className="pr-2 text-right">{t("insights.total")}</th>
            {days.map((d) => (
              <th key={d} className="px-1 text-right font-normal" title={d}>
                {d.slice(8)}/{d.slice(5, 7)}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.length === 0 ? (
            <tr>
              <td colSpan={days.length + 2} className="py-4 text-center text-muted-foreground">
                {t("insights.empty")}
              </td>
            </tr>
          ) : (
            rows.map((s) => (
              <tr key={s.key || "others"} data-key={s.key} className="border-t">
                <td className="py-1 pr-2 whitespace-nowrap">{s.label}</td>
                <td className="pr-2 text-right font-medium" data-col="total">
                  {s.total}
                </td>
                {s.counts.map((n, i) => (
                  <td key={days[i]} className={`px-1 text-right ${n ? "" : "text-muted-foreground"}`}>
                    {n}
                  </td>
                ))}
              </tr>
            ))
          )}
        </tbody>
      </table>
    </div>
  );
}

export default function AdminAuditInsights() {
  const { filters, errors, insights: i } = useLoaderData<typeof loader>();
  const { t } = useTranslation("adminAudit");
  const max = i ? Math.max(1, ...i.per_day) : 1;
  return (
    <div className="space-y-6">
      <PageHeader description={t("insights.description")} />
      <p>
        <Link to={hrefWith("/admin/audit", { account: filters.account, user: filters.user, from: i?.from ?? filters.from, to: i?.to ?? filters.to })} className="text-sm underline">
          {t("insights.toAudit")}
        </Link>
      </p>
      <Form method="get" role="search" aria-label={t("insights.filter")} className="flex flex-wrap items-start gap-3">
        <FilterField name="account" label={t("filters.account")} value={filters.account} errors={errors} placeholder={t("filters.accountPlaceholder")} maxLength={36} />
        <FilterField name="user" label={t("filters.user")} value={filters.user} errors={errors} placeholder={t("filters.userPlaceholder")} maxLength={254} />
        <FilterField name="from" type="date" label={t("filters.from")} value={i?.from ?? filters.from} errors={errors} />
        <FilterField name="to" type="date" label={t("filters.to")} value={i?.to ?? filters.to} errors={errors} />
        <Button type="submit" className="mt-6">
          {t("filters.submit")}
        </Button>
      </Form>
      <FormErrors errors={errors?.[""]} />
      {i ? (
        <>
          <Card>
            <CardHeader>
              <CardTitle>{t("insights.perDay", { total: i.total })}</CardTitle>
            </CardHeader>
            <CardContent>
              <figure aria-label={t("insights.chart")}>
                <div className="flex h-40 items-end gap-px border-b" role="img" aria-label={t("insights.chartAlt", { total: i.total, from: i.from, to: i.to })}>
                  {i.days.map((d, k) => (
                    <div key={d} className="flex h-full flex-1 flex-col justify-end" title={`${d}: ${i.per_day[k]}`} data-day={d} data-count={i.per_day[k]}>
                      <div className="w-full rounded-t bg-primary" style={{ height: `${(i.per_day[k] / max) * 100}%`, minHeight: i.per_day[k] ? 2 : 0 }} />
                    </div>
                  ))}
                </div>
                <figcaption className="mt-1 flex justify-between text-xs text-muted-foreground">
                  <span>{i.from}</span>
                  <span>{i.to}</span>
                </figcaption>
              </figure>
            </CardContent>
          </Card>
          <Card>
            <CardHeader>
              <CardTitle>{t("insights.byType")}</CardTitle>
            </CardHeader>
            <CardContent>
              <SeriesTable
                caption={t("insights.byType")}
                name="by-type"
                days={i.days}
                top={i.by_type.top}
                others={i.by_type.others}
                othersLabel={t("insights.others")}
                labelOf={(s) => `${s.label} (${s.key})`}
              />
            </CardContent>
          </Card>
          <Card>
            <CardHeader>
              <CardTitle>{t("insights.byUser")}</CardTitle>
            </CardHeader>
            <CardContent>
              <SeriesTable
                caption={t("insights.byUser")}
                name="by-user"
                days={i.days}
                top={i.by_user.top}
                others={i.by_user.others}
                othersLabel={t("insights.others")}
                labelOf={(s) => s.label || t("audit.system")}
              />
            </CardContent>
          </Card>
        </>
      ) : null}
    </div>
  );
}
