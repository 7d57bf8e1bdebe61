/**
 * /admin/trackers/{id} (issue 23, ADR 062; platform staff): one tracker's page — the SMS of every
 * account that match its number or sender id over the last 30 days, newest first (status,
 * account, direction, time), keyset pages ("More"), and the delete form. No script needed.
 */
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Link, useActionData, useLoaderData, useRouteLoaderData } from "@remix-run/react";
import { useTranslation } from "~/lib/react-i18n";
import { deleteTracker, TRACKER_DAYS, trackedMessages } from "~api/trackers/trackers";
import { ConfirmDeleteRow } from "~/components/forms/confirm-delete";
import { PageHeader } from "~/components/shell/page-header";
import { Button } from "~/components/ui/button";
import { Card, CardContent } from "~/components/ui/card";
import { orHttpError, requireRoute } from "~/lib/auth.server";
import { formatDate } from "~/lib/format";
import { deleteIntentSchema, handleForm, type FormReply } from "~/lib/forms.server";
import type { Lng } from "~/lib/i18n";
import { redirectWithToast } from "~/lib/toast.server";
import type { RootData } from "~/root";

export const handle = {
  crumb: (data: unknown) => {
    const d = data as { tracker?: { value: string } } | undefined;
    return d?.tracker ? { key: "adminAudit:trackers.pageTitle", params: { value: d.tracker.value } } : "adminAudit:trackers.title";
  },
};

export async function loader({ request, params }: LoaderFunctionArgs) {
  const ctx = await requireRoute(request);
  const cursor = new URL(request.url).searchParams.get("cursor") ?? undefined;
  const page = await orHttpError(trackedMessages(ctx, params.trackerId ?? "", { cursor, limit: "50" }));
  return json({ ...page, days: TRACKER_DAYS }, { headers: { "Cache-Control": "private, no-store" } });
}

export async function action({ request, params }: ActionFunctionArgs) {
  const ctx = await requireRoute(request);
  return handleForm(request, deleteIntentSchema, async ({ id }) => {
    if (id !== params.trackerId) throw new Response("Not found", { status: 404 });
    await deleteTracker(ctx, id);
    return redirectWithToast(request, "/admin/trackers", { type: "success", title: "adminAudit:trackers.deleted" });
  });
}

export default function AdminTracker() {
  const { tracker, data, next_cursor, days } = useLoaderData<typeof loader>();
  const last = useActionData<FormReply>();
  const lng = (useRouteLoaderData<RootData>("root")?.lng ?? "pt-BR") as Lng;
  const { t } = useTranslation("adminAudit");
  return (
    <div className="space-y-6">
      <PageHeader description={t("trackers.pageDescription", { kind: t(`trackers.kinds.${tracker.kind}`), value: tracker.value, days })} />
      <div className="flex flex-wrap items-center justify-between gap-3">
        <p className="text-sm text-muted-foreground">{tracker.label ?? ""}</p>
        <ConfirmDeleteRow t={t} prefix="trackers" params={{ value: tracker.value }} id={tracker.id} errors={last?.result.error?.[""]} />
      </div>
      <Card>
        <CardContent className="overflow-x-auto pt-6">
          {data.length === 0 ? (
            <p className="py-6 text-center text-sm text-muted-foreground">{t("trackers.noMessages", { days })}</p>
          ) : (
            <table className="w-full text-sm">
              <thead>
                <tr className="text-left text-muted-foreground">
                  <th className="py-2">{t("trackers.when")}</th>
                  <th>{t("filters.account")}</th>
                  <th>{t("trackers.direction")}</th>
                  <th>{t("trackers.from")}</th>
                  <th>{t("trackers.to")}</th>
                  <th>{t("trackers.status")}</th>
                </tr>
              </thead>
              <tbody>
                {data.map((m) => (
                  <tr key={m.id} data-message-id={m.id} data-account-id={m.account_id} className="border-t">
                    <td className="py-2 whitespace-nowrap">{formatDate(m.created_at, lng, true)}</td>
                    <td>{m.account_name}</td>
                    <td>{t(`trackers.directions.${m.direction}`)}</td>
                    <td className="font-mono">{m.sender}</td>
                    <td className="font-mono">{m.recipient}</td>
                    <td data-col="status">{t(`trackers.statuses.${m.status}`, { defaultValue: m.status })}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </CardContent>
      </Card>
      {next_cursor ? (
        <Button asChild variant="outline">
          <Link to={`?cursor=${encodeURIComponent(next_cursor)}`}>{t("more")}</Link>
        </Button>
      ) : null}
      <p>
        <Link to="/admin/trackers" className="text-sm underline">
          {t("trackers.back")}
        </Link>
      </p>
    </div>
  );
}
