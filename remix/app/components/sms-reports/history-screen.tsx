/**
 * The SMS history screen (/sms/history and /sms/reports/history): filters (GET form), the table,
 * numbered pages for the first pages and the keyset cursor for "next" (fast at any depth), the
 * Export button (a POST form with the filters shown) and a link to the exports.
 */
import { useLoaderData, useRouteLoaderData } from "@remix-run/react";
import { useTranslation } from "~/lib/react-i18n";
import { HISTORY_FILTERS, HistoryFilters, type HistoryFilterValues } from "./history-filters";
import { HistoryTable } from "./history-table";
import { formatCount } from "./format";
import { HistoryShell } from "~/components/history/history-shell";
import { Pager } from "~/components/ui/pager";
import type { historyLoader } from "~/lib/sms-reports.server";
import type { RootData } from "~/root";

function filterParams(values: HistoryFilterValues) {
  const p = new URLSearchParams();
  for (const k of HISTORY_FILTERS) if (values[k]) p.set(k, values[k]);
  return p;
}

export function HistoryScreen({ base, exportsPath }: { base: string; exportsPath: string }) {
  const { page, values, errors, formErrors, statuses, canExport } = useLoaderData<typeof historyLoader>();
  const lng = useRouteLoaderData<RootData>("root")?.lng ?? "pt-BR";
  const { t } = useTranslation(["smsReports", "common"]);
  const hrefFor = (n: number) => {
    const p = filterParams(values);
    // The next page by the keyset cursor (as fast at page 5,000 as at page 2); other pages by number.
    if (page?.next_cursor && n === page.page + 1) p.set("cursor", page.next_cursor);
    else if (n > 1) p.set("page", String(n));
    return `${base}?${p.toString()}`;
  };
  const pageCount = page ? Math.max(page.last_page, page.page + (page.next_cursor ? 1 : 0)) : 1;
  const n = page ? formatCount(page.total, lng) : "0";

  return (
    <HistoryShell
      path={base}
      exportsPath={exportsPath}
      ns="smsReports"
      filterKeys={HISTORY_FILTERS}
      values={values}
      page={page}
      canExport={canExport}
      formErrors={formErrors}
      filters={<HistoryFilters action={base} values={values} statuses={statuses} errors={errors} />}
      table={page ? <HistoryTable rows={page.data} lng={lng} detailBase={base} /> : null}
      summary={
        page ? (
          <>
            {page.total_capped ? t("history.totalCapped", { n }) : t("history.total", { count: page.total })}
            {" · "}
            {t("history.range", { from: page.created_at.gte.split("-").reverse().join("/"), to: page.created_at.lte.split("-").reverse().join("/") })}
          </>
        ) : null
      }
      pager={
        page ? (
          <Pager
            page={page.page}
            pageCount={pageCount}
            hrefFor={hrefFor}
            aria-label={t("common:pager.label")}
            labels={{ previous: t("common:pager.previous"), next: t("common:pager.next"), page: (p) => t("common:pager.page", { n: p }), more: t("common:pager.more") }}
          />
        ) : null
      }
    />
  );
}
