/**
 * /contacts/import/{id}: one import, driven only by its row, so a person may leave and come back.
 * Uploaded: the column mapping (preview of the first rows) and the group; start. Queued or
 * running: live progress (JavaScript polls this route's loader every second; without JavaScript
 * the page refreshes itself every 2 s). Completed or failed: the summary and the error report.
 */
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { useActionData, useFetcher, useLoaderData, useRouteLoaderData } from "@remix-run/react";
import { useEffect, useRef, useState } from "react";
import { useTranslation } from "~/lib/react-i18n";
import { groupOptions } from "~api/contacts/groups";
import { listCustomFields } from "~api/contacts/fields";
import { getImport, startImport, type ImportView } from "~api/imports/services";
import { isAppError } from "~api/lib/errors";
import { FormErrors } from "~/components/forms/fields";
import { ImportProgress, ImportSummary } from "~/components/imports/import-progress";
import { MappingForm, mappingColumns, type MappingOptions, type MappingReply } from "~/components/imports/mapping-form";
import { isActive, isFinished } from "~/components/imports/status-badge";
import { PageHeader } from "~/components/shell/page-header";
import { orHttpError, requireRoute } from "~/lib/auth.server";
import { requireCsrf } from "~/lib/csrf.server";
import { redirectWithToast } from "~/lib/toast.server";
import type { RootData } from "~/root";

type LoaderData = { imp?: { files: Array<{ name: string }> } } | undefined;

export const handle = {
  crumb: (data: unknown) => {
    const files = (data as LoaderData)?.imp?.files ?? [];
    if (!files.length) return "imports:crumb";
    return files.length > 1
      ? { key: "imports:fileCrumbMore", params: { name: files[0].name, more: files.length - 1 } }
      : { key: "imports:fileCrumb", params: { name: files[0].name } };
  },
};

export async function loader({ request, params }: LoaderFunctionArgs) {
  const ctx = await requireRoute(request);
  const imp = await orHttpError(getImport(ctx, params.id ?? ""));
  let options: MappingOptions | null = null;
  let groupName: string | null = null;
  if (imp.status === "uploaded") {
    const [groups, fields] = await Promise.all([orHttpError(groupOptions(ctx)), orHttpError(listCustomFields(ctx))]);
    options = { groups, customFields: fields.map((f) => ({ key: f.key, label: f.label })) };
  } else if (imp.groupId && isFinished(imp.status)) {
    const groups = await orHttpError(groupOptions(ctx));
    groupName = groups.find((g) => g.id === imp.groupId)?.name ?? null;
  }
  return json({ imp, options, groupName }, { headers: { "Cache-Control": "private, no-store" } });
}

export async function action({ request, params }: ActionFunctionArgs) {
  const ctx = await requireRoute(request);
  const id = params.id ?? "";
  // Another account's import (or none) is not found, whatever was posted.
  const imp = await orHttpError(getImport(ctx, id));
  const form = await request.formData();
  try {
    await requireCsrf(request, form);
  } catch {
    return json({ formErrors: ["errors.CSRF"] } satisfies MappingReply, { status: 403 });
  }
  const text = (name: string) => {
    const v = form.get(name);
    return typeof v === "string" ? v : "";
  };
  // One select per distinct header, posted as col.<index> in the order the files list them.
  const mapping = Object.fromEntries(mappingColumns(imp.files).map((c, i) => [c, text(`col.${i}`)]));
  const values = { mapping, groupId: text("groupId"), newGroupName: text("newGroupName") };
  try {
    // A new group's name, when given, wins over the select.
    await startImport(ctx, id, { mapping, groupId: values.newGroupName.trim() ? null : values.groupId || null, newGroupName: values.newGroupName });
  } catch (e) {
    if (!isAppError(e)) throw e;
    const { group_id, groupId, newGroupName, new_group_name, ...rest } = e.fields ?? {};
    const fieldErrors: Record<string, string[]> = {};
    if (group_id ?? groupId) fieldErrors.groupId = (group_id ?? groupId)!;
    if (newGroupName ?? new_group_name) fieldErrors.newGroupName = (newGroupName ?? new_group_name)!;
    const formErrors = [...new Set([...(e.code === "VALIDATION" ? [] : [`errors.${e.code}`]), ...Object.values(rest).flat()])];
    if (!formErrors.length && !Object.keys(fieldErrors).length) formErrors.push(`errors.${e.code}`);
    return json({ formErrors, fieldErrors, params: e.params, values } satisfies MappingReply, { status: e.status });
  }
  return redirectWithToast(request, `/contacts/import/${id}`, { type: "success", title: "imports:mapping.started" });
}

/** While the import is queued or running, read this route's loader again every second; the latest answer wins. */
function useLiveImport(data: ReturnType<typeof useLoaderData<typeof loader>>) {
  const fetcher = useFetcher<typeof loader>();
  const [current, setCurrent] = useState(data);
  useEffect(() => setCurrent(data), [data]);
  useEffect(() => {
    if (fetcher.data && fetcher.data.imp.id === data.imp.id) setCurrent(fetcher.data);
  }, [fetcher.data, data.imp.id]);
  const shown = current.imp.id === data.imp.id ? current : data;
  const active = isActive(shown.imp.status);
  const ref = useRef(fetcher);
  ref.current = fetcher;
  const id = data.imp.id;
  useEffect(() => {
    if (!active) return;
    const timer = setInterval(() => {
      if (ref.current.state === "idle") ref.current.load(`/contacts/import/${id}`);
    }, 1000);
    return () => clearInterval(timer);
  }, [active, id]);
  return shown;
}

export default function ImportDetail() {
  const data = useLoaderData<typeof loader>();
  const last = useActionData<MappingReply>();
  const root = useRouteLoaderData<RootData>("root");
  const lng = root?.lng ?? "pt-BR";
  const { imp: raw, options, groupName } = useLiveImport(data);
  const imp = raw as ImportView;
  const { t } = useTranslation("imports");
  const selected = last?.values?.mapping ?? { ...imp.suggestedMapping, ...imp.mapping };
  return (
    <div className="space-y-6">
      {/* Without JavaScript the page refreshes itself while the import runs (browsers ignore <noscript> when scripts run). */}
      {isActive(imp.status) ? (
        <noscript>
          <meta httpEquiv="refresh" content="2" />
        </noscript>
      ) : null}
      <PageHeader description={imp.status === "uploaded" ? t("mapping.description") : undefined} />
      {imp.status === "uploaded" && options ? (
        <MappingForm files={imp.files} selected={selected} options={options} reply={last} lng={lng} />
      ) : (
        <>
          <FormErrors errors={last?.formErrors} params={last?.params} />
          {isActive(imp.status) ? <ImportProgress imp={imp} lng={lng} /> : <ImportSummary imp={imp} lng={lng} groupName={groupName} failureParams={imp.failureParams} />}
        </>
      )}
    </div>
  );
}
