/**
 * /flows (issue 20): the account's flows — name, status (draft, active, inactive), channel,
 * trigger (and keyword), published version, last change —, filtered by status and channel (a GET
 * form), and the checked ones enabled or inactivated at once (setFlowStatus: all or none; each
 * refused flow named with its reason). Plain forms: works without JavaScript.
 */
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation, useRouteLoaderData } from "@remix-run/react";
import { FLOW_CHANNELS, FLOW_STATUSES, type FlowStatus } from "~api/flows/constants";
import { listFlows, setFlowStatus } from "~api/flows/flows";
import { CsrfInput, ErrorText, useErrorText } from "~/components/forms/fields";
import { PageHeader } from "~/components/shell/page-header";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { Card, CardContent } from "~/components/ui/card";
import { NativeSelect, NativeSelectOption } from "~/components/ui/native-select";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "~/components/ui/table";
import { flowBulkFormSchema } from "~/forms/flows";
import { orHttpError, requireRoute } from "~/lib/auth.server";
import { formatDate } from "~/lib/format";
import { handleForm, type FormReply } from "~/lib/forms.server";
import type { Lng } from "~/lib/i18n";
import { useTranslation } from "~/lib/react-i18n";
import { redirectWithToast } from "~/lib/toast.server";
import type { RootData } from "~/root";

const PATH = "/flows";
const STATUS_BADGE: Record<FlowStatus, "secondary" | "success" | "outline"> = { draft: "outline", active: "success", inactive: "secondary" };

export async function loader({ request }: LoaderFunctionArgs) {
  const ctx = await requireRoute(request);
  const q = new URL(request.url).searchParams;
  const filters = { status: q.get("status") || undefined, channel: q.get("channel") || undefined, cursor: q.get("cursor") || undefined };
  const page = await orHttpError(listFlows(ctx, { ...filters, limit: "100" }));
  return json({ flows: page.data, next: page.next_cursor, filters }, { headers: { "Cache-Control": "private, no-store" } });
}

export async function action({ request }: ActionFunctionArgs) {
  const ctx = await requireRoute(request);
  return handleForm(request, flowBulkFormSchema, async ({ intent, ids }) => {
    const status = intent === "enable" ? "active" : "inactive";
    const r = await setFlowStatus(ctx, { ids, status });
    return redirectWithToast(request, PATH, {
      type: "success",
      title: status === "active" ? "flows:bulk.enabled" : "flows:bulk.inactivated",
      params: { count: r.data.length },
    });
  });
}

export default function FlowsList() {
  const { flows, next, filters } = useLoaderData<typeof loader>();
  const lng = (useRouteLoaderData<RootData>("root")?.lng ?? "pt-BR") as Lng;
  const last = useActionData<FormReply>();
  const busy = useNavigation().state === "submitting";
  const { t } = useTranslation("flows");
  const text = useErrorText();
  // All or none: each refused flow (`ids.<i>`, the i-th checked id) is named with its reason, and its row marked.
  const sent = (last?.result.initialValue as { ids?: string | string[] } | undefined)?.ids;
  const sentIds = Array.isArray(sent) ? sent : sent ? [sent] : [];
  const refused = new Map<string, string[]>();
  const general: string[] = [];
  for (const [key, errors] of Object.entries(last?.result.error ?? {})) {
    const m = /^ids\.(\d+)$/.exec(key);
    const id = m ? sentIds[Number(m[1])] : undefined;
    if (id && errors) refused.set(id, errors);
    else general.push(...(errors ?? []));
  }
  const nameOf = (id: string) => flows.find((f) => f.id === id)?.name ?? id;
  return (
    <div className="space-y-6">
      <PageHeader
        description={t("list.description")}
        actions={
          <div className="flex flex-wrap gap-2">
            <Button asChild variant="outline">
              <Link to="/flows/reports">{t("reports.link")}</Link>
            </Button>
            <Button asChild variant="outline">
              <Link to="/flows/templates">{t("list.templates")}</Link>
            </Button>
            <Button asChild>
              <Link to="/flows/create">{t("list.new")}</Link>
            </Button>
          </div>
        }
      />
      <Form method="get" className="flex flex-wrap items-end gap-3" aria-label={t("list.filter")}>
        <div className="grid gap-1">
          <label htmlFor="flows-status" className="text-sm font-medium">
            {t("fields.status")}
          </label>
          <NativeSelect id="flows-status" name="status" defaultValue={filters.status ?? ""}>
            <NativeSelectOption value="">{t("list.all")}</NativeSelectOption>
            {FLOW_STATUSES.map((s) => (
              <NativeSelectOption key={s} value={s}>
                {t(`status.${s}`)}
              </NativeSelectOption>
            ))}
          </NativeSelect>
        </div>
        <div className="grid gap-1">
          <label htmlFor="flows-channel" className="text-sm font-medium">
            {t("fields.channel")}
          </label>
          <NativeSelect id="flows-channel" name="channel" defaultValue={filters.channel ?? ""}>
            <NativeSelectOption value="">{t("list.all")}</NativeSelectOption>
            {FLOW_CHANNELS.map((c) => (
              <NativeSelectOption key={c} value={c}>
                {t(`channels.${c}`)}
              </NativeSelectOption>
            ))}
          </NativeSelect>
        </div>
        <Button type="submit" variant="outline">
          {t("list.apply")}
        </Button>
      </Form>
      <Card>
        <CardContent className="space-y-4">
          {flows.length === 0 ? (
            <p className="py-8 text-center text-sm text-muted-foreground" data-testid="flows-empty">
              {t("list.empty")}
            </p>
          ) : (
            <>
              <Table>
                <TableHeader>
                  <TableRow>
                    <TableHead className="w-8">
                      <span className="sr-only">{t("bulk.column")}</span>
                    </TableHead>
                    <TableHead>{t("fields.name")}</TableHead>
                    <TableHead>{t("fields.status")}</TableHead>
                    <TableHead>{t("fields.channel")}</TableHead>
                    <TableHead>{t("fields.trigger")}</TableHead>
                    <TableHead>{t("list.version")}</TableHead>
                    <TableHead>{t("list.updated")}</TableHead>
                    <TableHead>
                      <span className="sr-only">{t("reports.link")}</span>
                    </TableHead>
                  </TableRow>
                </TableHeader>
                <TableBody>
                  {flows.map((f) => (
                    <TableRow key={f.id} id={`flow-${f.id}`} data-flow-id={f.id} className={refused.has(f.id) ? "bg-destructive/10" : undefined}>
                      <TableCell className="align-top">
                        <input type="checkbox" name="ids" value={f.id} form="flows-bulk" aria-label={t("bulk.select", { name: f.name })} className="size-4" />
                      </TableCell>
                      <TableCell className="align-top font-medium">
                        <Link to={`/flows/${f.id}`} className="underline-offset-4 hover:underline">
                          {f.name}
                        </Link>
                        {refused.has(f.id) ? <ErrorText errors={refused.get(f.id)} className="font-normal" /> : null}
                      </TableCell>
                      <TableCell className="align-top">
                        <Badge variant={STATUS_BADGE[f.status]} data-testid="flow-status">
                          {t(`status.${f.status}`)}
                        </Badge>
                      </TableCell>
                      <TableCell className="align-top">{t(`channels.${f.channel}`)}</TableCell>
                      <TableCell className="align-top">
                        {t(`triggers.${f.trigger}`)}
                        {f.trigger_value ? (
                          <>
                            {" "}
                            <code className="rounded bg-muted px-1.5 py-0.5 text-xs">{f.trigger_value}</code>
                          </>
                        ) : null}
                      </TableCell>
                      <TableCell className="align-top" data-testid="flow-version">
                        {f.published_version ? t("list.versionN", { version: f.published_version }) : <span className="text-muted-foreground">{t("list.unpublished")}</span>}
                      </TableCell>
                      <TableCell className="whitespace-nowrap align-top">{formatDate(f.updated_at, lng, true)}</TableCell>
                      <TableCell className="align-top">
                        <Link to={`/flows/reports?flow=${f.id}`} className="text-sm underline-offset-4 hover:underline" aria-label={t("reports.ofFlow", { name: f.name })}>
                          {t("reports.link")}
                        </Link>
                      </TableCell>
                    </TableRow>
                  ))}
                </TableBody>
              </Table>
              {next ? (
                <Button asChild variant="outline" size="sm">
                  <Link
                    to={`?${new URLSearchParams({ ...(filters.status ? { status: filters.status } : {}), ...(filters.channel ? { channel: filters.channel } : {}), cursor: next })}`}
                  >
                    {t("list.more")}
                  </Link>
                </Button>
              ) : null}
              <Form method="post" id="flows-bulk" className="flex flex-wrap items-center gap-3">
                <CsrfInput />
                <Button type="submit" name="intent" value="enable" size="sm" disabled={busy}>
                  {t("bulk.enable")}
                </Button>
                <Button type="submit" name="intent" value="inactivate" variant="outline" size="sm" disabled={busy}>
                  {t("bulk.inactivate")}
                </Button>
              </Form>
              {refused.size || general.length ? (
                <div role="alert" className="rounded-md border border-destructive/40 bg-destructive/10 px-3 py-2 text-sm text-destructive" data-testid="bulk-errors">
                  <p>{t("bulk.noneChanged")}</p>
                  <ul className="list-disc ps-5">
                    {[...refused].map(([id, errors]) => (
                      <li key={id}>{t("bulk.refused", { name: nameOf(id), reason: errors.map((e) => text(e)).join(" ") })}</li>
                    ))}
                    {general.map((e) => (
                      <li key={e}>{text(e)}</li>
                    ))}
                  </ul>
                </div>
              ) : null}
            </>
          )}
        </CardContent>
      </Card>
    </div>
  );
}
