/**
 * /flows/{id}/stream/{streamId} (issue 20): one conversation's path through the flow, step by step
 * (api/flows/streams.ts `streamView`): when, which step, the output it left by, what happened there
 * (the bot's text, the visitor's answer, a failed check, an HTTP status, a timer) and the variables
 * after it, changes marked. The header says the flow and version, the status (with what it means),
 * the reason of an early end, the room and contact. Cancel is a plain form (CSRF, post-redirect-get)
 * shown while the stream is live; a stream of another flow or account is 404. Works without JavaScript.
 */
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation, useRouteLoaderData } from "@remix-run/react";
import { streamView, updateStream } from "~api/flows/streams";
import { STREAM_BADGE } from "~/components/flows/stream-status";
import { CsrfInput, FormErrors } from "~/components/forms/fields";
import { PageHeader } from "~/components/shell/page-header";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "~/components/ui/card";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "~/components/ui/table";
import { streamCancelFormSchema } from "~/forms/flows";
import { orHttpError, requireRoute } from "~/lib/auth.server";
import { formatDate } from "~/lib/format";
import { handleForm, type FormReply } from "~/lib/forms.server";
import type { Lng } from "~/lib/i18n";
import { useTranslation } from "~/lib/react-i18n";
import { redirectWithToast } from "~/lib/toast.server";
import type { RootData } from "~/root";

export const handle = {
  crumb: (data: unknown) => ({ key: "flows:stream.crumb", params: { name: (data as { stream?: { flow_name: string } } | undefined)?.stream?.flow_name ?? "" } }),
};

export async function loader({ request, params }: LoaderFunctionArgs) {
  const ctx = await requireRoute(request);
  const { data } = await orHttpError(streamView(ctx, params.id ?? "", params.streamId ?? ""));
  return json({ stream: data }, { headers: { "Cache-Control": "private, no-store" } });
}

export async function action({ request, params }: ActionFunctionArgs) {
  const ctx = await requireRoute(request);
  const path = `/flows/${params.id}/stream/${params.streamId}`;
  return handleForm(request, streamCancelFormSchema, async () => {
    // Of this flow (404 otherwise), then cancelled (409 when it had ended).
    await streamView(ctx, params.id ?? "", params.streamId ?? "");
    await updateStream(ctx, params.streamId ?? "", { status: "cancelled" });
    return redirectWithToast(request, path, { type: "success", title: "flows:stream.cancelled" });
  });
}

const show = (v: unknown) => (v === null || v === undefined ? "" : typeof v === "object" ? JSON.stringify(v) : String(v));

/** What a step left behind, in words. */
function StepDetail({ type, detail, lng }: { type: string; detail: Record<string, unknown>; lng: Lng }) {
  const { t } = useTranslation("flows");
  const lines: Array<[string, string]> = [];
  if (detail.answer !== undefined) lines.push([t("stream.detail.answer"), show(detail.answer)]);
  if (detail.valid === false)
    lines.push([
      t("stream.detail.check"),
      detail.retries_left !== undefined ? t("stream.detail.invalidRetry", { count: Number(detail.retries_left) }) : t("stream.detail.invalid"),
    ]);
  if (detail.value !== undefined) lines.push([t("stream.detail.value"), show(detail.value)]);
  if (detail.sent !== undefined) lines.push([t("stream.detail.sent"), show(detail.sent)]);
  if (detail.media_url !== undefined) lines.push([t("stream.detail.media"), show(detail.media_url)]);
  if (type === "http") {
    lines.push([t("stream.detail.httpStatus"), detail.status === null || detail.status === undefined ? "—" : show(detail.status)]);
    if (detail.error) lines.push([t("stream.detail.httpError"), show(detail.error)]);
    const mapped = Object.entries((detail.mapped ?? {}) as Record<string, unknown>);
    if (mapped.length) lines.push([t("stream.detail.mapped"), mapped.map(([k, v]) => `${k} = ${show(v)}`).join(", ")]);
  }
  if (detail.until) lines.push([t("stream.detail.until"), formatDate(show(detail.until), lng, true)]);
  if (detail.waited_until) lines.push([t("stream.detail.waited"), formatDate(show(detail.waited_until), lng, true)]);
  if (detail.timed_out_at) lines.push([t("stream.detail.timedOut"), formatDate(show(detail.timed_out_at), lng, true)]);
  if (detail.kind !== undefined) lines.push([t("stream.detail.action"), [t(`actionKinds.${show(detail.kind)}`), show(detail.name), show(detail.value)].filter(Boolean).join(" ")]);
  if (type === "handoff") lines.push([t("stream.detail.handoff"), detail.department_id ? show(detail.department_id) : t("stream.detail.anyDepartment")]);
  if (!lines.length) return <span className="text-muted-foreground">—</span>;
  return (
    <dl className="grid grid-cols-[auto_1fr] gap-x-2 gap-y-0.5 text-sm">
      {lines.map(([k, v]) => (
        <div key={k} className="contents">
          <dt className="text-muted-foreground">{k}</dt>
          <dd className="break-words">{v}</dd>
        </div>
      ))}
    </dl>
  );
}

/** The variables after a step; the ones new or changed since the previous step highlighted. */
function Vars({ vars, before }: { vars: Record<string, string>; before: Record<string, string> }) {
  const { t } = useTranslation("flows");
  const keys = Object.keys(vars).sort();
  const removed = Object.keys(before).filter((k) => !(k in vars));
  if (!keys.length && !removed.length) return <span className="text-muted-foreground">—</span>;
  return (
    <ul className="space-y-0.5 text-sm" data-testid="step-vars">
      {keys.map((k) => {
        const changed = before[k] !== vars[k];
        return (
          <li key={k} data-changed={changed ? "true" : undefined} className={changed ? "rounded bg-warning/20 px-1 font-medium" : undefined}>
            <code className="text-xs">{k}</code> = {vars[k]}
            {changed ? <span className="sr-only"> ({t("stream.changed")})</span> : null}
          </li>
        );
      })}
      {removed.map((k) => (
        <li key={k} className="text-muted-foreground line-through">
          <code className="text-xs">{k}</code>
        </li>
      ))}
    </ul>
  );
}

export default function StreamView() {
  const { stream } = useLoaderData<typeof loader>();
  const lng = (useRouteLoaderData<RootData>("root")?.lng ?? "pt-BR") as Lng;
  const last = useActionData<FormReply>();
  const busy = useNavigation().state === "submitting";
  const { t } = useTranslation("flows");
  const early = stream.status === "failed" || stream.status === "dropped" || stream.status === "cancelled";
  return (
    <div className="space-y-6">
      <PageHeader
        description={t("stream.description")}
        actions={
          <div className="flex flex-wrap gap-2">
            <Button asChild variant="outline">
              <Link to={`/flows/reports?flow=${stream.flow_id}`}>{t("reports.link")}</Link>
            </Button>
            <Button asChild variant="outline">
              <Link to={`/flows/${stream.flow_id}`}>{t("stream.builder")}</Link>
            </Button>
          </div>
        }
      />
      <Card>
        <CardContent className="space-y-4">
          <dl className="grid grid-cols-1 gap-x-6 gap-y-3 text-sm sm:grid-cols-2 lg:grid-cols-3">
            <div>
              <dt className="text-muted-foreground">{t("stream.flow")}</dt>
              <dd data-testid="stream-flow">
                <Link to={`/flows/${stream.flow_id}`} className="font-medium underline-offset-4 hover:underline">
                  {stream.flow_name}
                </Link>{" "}
                {t("list.versionN", { version: stream.version })}
              </dd>
            </div>
            <div>
              <dt className="text-muted-foreground">{t("fields.status")}</dt>
              <dd className="space-y-1">
                <Badge variant={STREAM_BADGE[stream.status] ?? "outline"} title={t(`streamStatus.${stream.status}.hint`)} data-testid="stream-status" data-status={stream.status}>
                  {t(`streamStatus.${stream.status}.label`)}
                </Badge>
                <p className="text-xs text-muted-foreground">{t(`streamStatus.${stream.status}.hint`)}</p>
              </dd>
            </div>
            {early && stream.reason ? (
              <div>
                <dt className="text-muted-foreground">{t("stream.reason")}</dt>
                <dd data-testid="stream-reason">{stream.reason}</dd>
              </div>
            ) : null}
            <div>
              <dt className="text-muted-foreground">{t("stream.room")}</dt>
              <dd data-testid="stream-room">
                {stream.can_see_room ? (
                  <Link to={`/live/history/${stream.room_id}`} className="underline-offset-4 hover:underline">
                    {stream.room_protocol ? t("stream.protocol", { protocol: stream.room_protocol }) : stream.room_id}
                  </Link>
                ) : stream.room_protocol ? (
                  t("stream.protocol", { protocol: stream.room_protocol })
                ) : (
                  stream.room_id
                )}{" "}
                · {t(`channels.${stream.channel}`)}
              </dd>
            </div>
            <div>
              <dt className="text-muted-foreground">{t("stream.contact")}</dt>
              <dd data-testid="stream-contact">{stream.contact_name ?? <span className="text-muted-foreground">—</span>}</dd>
            </div>
            <div>
              <dt className="text-muted-foreground">{t("stream.started")}</dt>
              <dd>{formatDate(stream.started_at, lng, true)}</dd>
            </div>
            <div>
              <dt className="text-muted-foreground">{t("stream.ended")}</dt>
              <dd>{stream.ended_at ? formatDate(stream.ended_at, lng, true) : <span className="text-muted-foreground">{t("stream.notEnded")}</span>}</dd>
            </div>
          </dl>
          {stream.live ? (
            <Form method="post" className="space-y-2" aria-label={t("stream.cancel")}>
              <CsrfInput />
              <FormErrors errors={last?.result.error?.[""]} />
              <p className="text-sm text-muted-foreground">{t("stream.cancelHint")}</p>
              <Button type="submit" name="intent" value="cancel" variant="destructive" disabled={busy}>
                {t("stream.cancel")}
              </Button>
            </Form>
          ) : (
            <FormErrors errors={last?.result.error?.[""]} />
          )}
        </CardContent>
      </Card>
      <Card>
        <CardHeader>
          <CardTitle>
            <h2>{t("stream.path", { count: stream.path.length })}</h2>
          </CardTitle>
        </CardHeader>
        <CardContent>
          {stream.path.length === 0 ? (
            <p className="py-6 text-center text-sm text-muted-foreground">{t("stream.noSteps")}</p>
          ) : (
            <Table>
              <TableHeader>
                <TableRow>
                  <TableHead>#</TableHead>
                  <TableHead>{t("stream.time")}</TableHead>
                  <TableHead>{t("stream.node")}</TableHead>
                  <TableHead>{t("stream.output")}</TableHead>
                  <TableHead>{t("stream.detailCol")}</TableHead>
                  <TableHead>{t("stream.vars")}</TableHead>
                </TableRow>
              </TableHeader>
              <TableBody>
                {stream.path.map((p, i) => (
                  <TableRow key={p.seq} data-testid="stream-step" data-seq={p.seq} data-node={p.node_id}>
                    <TableCell className="align-top tabular-nums">{p.seq}</TableCell>
                    <TableCell className="whitespace-nowrap align-top">{formatDate(p.created_at, lng, true)}</TableCell>
                    <TableCell className="align-top">
                      <span className="font-medium">{t(`nodes.${p.node_type}`)}</span> <code className="text-xs text-muted-foreground">{p.node_id}</code>
                    </TableCell>
                    <TableCell className="align-top" data-testid="step-output">
                      {p.output === null ? (
                        <span className="text-muted-foreground">{t(p.node_type === "handoff" || p.node_type === "end" ? "stream.endedHere" : "stream.stayed")}</span>
                      ) : (
                        <code className="text-xs">{t(`outputs.${p.output}`, { defaultValue: p.output })}</code>
                      )}
                    </TableCell>
                    <TableCell className="max-w-md whitespace-normal break-words align-top">
                      <StepDetail type={p.node_type} detail={p.detail} lng={lng} />
                    </TableCell>
                    <TableCell className="min-w-40 whitespace-normal break-words align-top">
                      <Vars vars={p.vars} before={i > 0 ? stream.path[i - 1].vars : {}} />
                    </TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          )}
        </CardContent>
      </Card>
    </div>
  );
}
