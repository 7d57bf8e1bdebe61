/**
 * /chat/reports: request a CSV export of the conversations of a period (a plain POST form: no
 * JavaScript needed; the toast says 'Report export: queued for processing'), and the account's
 * exports with their state and download (the shared exports table: it follows a running export
 * with or without JavaScript).
 */
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { useTranslation } from "~/lib/react-i18n";
import { createLiveExport, listLiveExports } from "~api/live/report-exports";
import { reportFilterOptions } from "~api/live/reports";
import { CsrfInput, FormErrors } from "~/components/forms/fields";
import { PeriodFilters } from "~/components/live-reports/period-filters";
import { dmy, ExportsTable } from "~/components/exports/exports-table";
import { PageHeader } from "~/components/shell/page-header";
import { Card, CardContent, CardHeader, CardTitle } from "~/components/ui/card";
import { orHttpError, requireRoute } from "~/lib/auth.server";
import { handleForm, type FormReply } from "~/lib/forms.server";
import { periodValues } from "~/lib/live-reports.server";
import { redirectWithToast } from "~/lib/toast.server";

export const handle = { crumb: "liveReports:crumbs.exports" };

export async function loader({ request }: LoaderFunctionArgs) {
  const ctx = await requireRoute(request);
  const [options, exports] = await Promise.all([orHttpError(reportFilterOptions(ctx)), orHttpError(listLiveExports(ctx))]);
  return json({ options, exports, values: periodValues(new URL(request.url).searchParams) }, { headers: { "Cache-Control": "private, no-store" } });
}

export async function action({ request }: ActionFunctionArgs) {
  const ctx = await requireRoute(request);
  return handleForm(request, null, async (_, form) => {
    await createLiveExport(ctx, periodValues(form));
    return redirectWithToast(request, "/chat/reports", { type: "success", title: "liveReports:exports.queued" });
  });
}

export default function ChatReports() {
  const { options, exports, values } = useLoaderData<typeof loader>();
  const last = useActionData<FormReply>();
  const { t } = useTranslation("liveReports");
  const errors = (last?.result.error ?? {}) as Record<string, string[] | undefined>;
  const name = (list: Array<{ id: string; name: string }>, id: string | null) => (id ? (list.find((x) => x.id === id)?.name ?? id.slice(0, 8)) : null);
  const describe = (f: (typeof exports)[number]["filter"]) =>
    [f.begin === f.end ? dmy(f.begin) : `${dmy(f.begin)} – ${dmy(f.end)}`, name(options.departments, f.department_id), name(options.agents, f.agent_id)]
      .filter(Boolean)
      .join(" · ");

  return (
    <div className="space-y-6">
      <PageHeader description={t("exports.description")} />
      <Card>
        <CardHeader>
          <CardTitle>{t("exports.request")}</CardTitle>
        </CardHeader>
        <CardContent className="space-y-3">
          <FormErrors errors={errors[""]} />
          <PeriodFilters action="/chat/reports?index" method="post" values={values} errors={errors} options={options} submitLabel={t("exports.submit")}>
            <CsrfInput />
          </PeriodFilters>
        </CardContent>
      </Card>
      <ExportsTable exports={exports} ns="liveReports" describe={describe} fileHref={(id) => `/chat/reports/${id}/file`} />
    </div>
  );
}
