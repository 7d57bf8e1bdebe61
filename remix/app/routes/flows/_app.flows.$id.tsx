/**
 * /flows/{id} (issue 20): the builder. With JavaScript, a node canvas (@xyflow/react, loaded after
 * hydration: components/flows/flow-canvas.tsx) edits the draft and posts it as JSON; without it,
 * the same form is a JSON textarea, with a readable list of the steps and their issues. Save keeps
 * the draft with its issues (ADR 053); Publish saves it and then publishes (422 'Flow has errors'
 * marks each faulty step; 409 when the channel has another active flow). The settings (name,
 * channel, trigger, keyword) and the published versions (Restore copies one into the draft) are
 * plain forms too.
 */
import { getFormProps, useForm } from "@conform-to/react";
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation, useRouteLoaderData } from "@remix-run/react";
import { lazy, Suspense, useState } from "react";
import { FLOW_CHANNELS, FLOW_TRIGGERS, type FlowStatus } from "~api/flows/constants";
import { flowDepartments, getFlow, publishFlow, restoreFlowVersion, updateFlow } from "~api/flows/flows";
import { testDraft, TRANSCRIPT_MAX, transcriptSchema, type TestEntry } from "~api/flows/test-run";
import { isAppError } from "~api/lib/errors";
import { issuesFromFields, nodeSummary, type DraftLike, type IssueLike } from "~/components/flows/summary";
import { TestPanel, type TestPanelData } from "~/components/flows/test-panel";
import { useHydrated } from "~/components/flows/use-hydrated";
import { SelectField } from "~/components/forms/controls";
import { CsrfInput, ErrorText, FormErrors, TextField, useErrorText } from "~/components/forms/fields";
import { IntentForm } from "~/components/forms/intent-form";
import { PageHeader } from "~/components/shell/page-header";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { Textarea } from "~/components/ui/textarea";
import { flowDraftFormSchema, flowRestoreFormSchema, flowSettingsFormSchema } from "~/forms/flows";
import { orHttpError, requireRoute } from "~/lib/auth.server";
import { formatDate } from "~/lib/format";
import { requireCsrf } from "~/lib/csrf.server";
import { handleForm, type FormReply } from "~/lib/forms.server";
import type { Lng } from "~/lib/i18n";
import { i18next } from "~/lib/i18n.server";
import { useLazyValidate } from "~/lib/lazy-validate";
import { useTranslation } from "~/lib/react-i18n";
import { redirectWithToast } from "~/lib/toast.server";
import type { RootData } from "~/root";

/** The canvas and what it needs (React Flow, the check): its own chunk, fetched once the page is hydrated (ADR 052's budget). */
const FlowCanvas = lazy(() => import("~/components/flows/flow-canvas"));

export const handle = { crumb: (data: unknown) => ({ key: "flows:crumbs.builder", params: { name: (data as { flow?: { name: string } } | undefined)?.flow?.name ?? "" } }) };

const STATUS_BADGE: Record<FlowStatus, "secondary" | "success" | "outline"> = { draft: "outline", active: "success", inactive: "secondary" };

export async function loader({ request, params }: LoaderFunctionArgs) {
  const ctx = await requireRoute(request);
  const locale = (await i18next.getLocale(request)) as Lng;
  const { data } = await orHttpError(getFlow({ ...ctx, locale }, params.id ?? ""));
  const departments = await flowDepartments(ctx);
  return json({ flow: data, departments }, { headers: { "Cache-Control": "private, no-store" } });
}

export async function action({ request, params }: ActionFunctionArgs) {
  const ctx = await requireRoute(request);
  const locale = (await i18next.getLocale(request)) as Lng;
  const fctx = { ...ctx, locale };
  const id = params.id ?? "";
  const path = `/flows/${id}`;
  const intent = (await request.clone().formData()).get("intent");
  if (intent === "test") return testTurn(request, fctx, id);
  if (intent === "settings") {
    return handleForm(request, flowSettingsFormSchema, async ({ intent: _i, ...settings }) => {
      await updateFlow(fctx, id, { ...settings, trigger_value: settings.trigger === "keyword" ? settings.trigger_value : null });
      return redirectWithToast(request, path, { type: "success", title: "flows:builder.settingsSaved" });
    });
  }
  if (intent === "restore") {
    return handleForm(request, flowRestoreFormSchema, async ({ version }) => {
      await restoreFlowVersion(fctx, id, version);
      return redirectWithToast(request, path, { type: "success", title: "flows:builder.restored", params: { version } });
    });
  }
  return handleForm(request, flowDraftFormSchema, async ({ intent, draft }, formData) => {
    try {
      await updateFlow(fctx, id, { draft });
      if (intent === "save") return redirectWithToast(request, path, { type: "success", title: "flows:builder.saved" });
      const { data } = await publishFlow(fctx, id);
      return redirectWithToast(request, path, { type: "success", title: "flows:builder.published", params: { version: data.published_version ?? 0 } });
    } catch (e) {
      if (!isAppError(e)) throw e;
      // 'Flow has errors' (or the channel taken) above the form, and each issue on its step (`nodes.<id>.<field>`).
      const result: FormReply["result"] = {
        status: "error",
        initialValue: { intent, draft: String(formData.get("draft") ?? "") },
        error: { "": [`errors.${e.code}`], ...(e.fields ?? {}) },
      };
      return json({ result } as FormReply, { status: e.status });
    }
  });
}

const jsonOf = (v: FormDataEntryValue | null): unknown => {
  if (typeof v !== "string" || !v) return null;
  try {
    return JSON.parse(v);
  } catch {
    return null;
  }
};

/**
 * One turn of the test panel (intent=test; a plain form, or the panel's fetcher): the simulated
 * state and the transcript so far come back as hidden JSON; the answer is the transcript with this
 * turn's entries (the last TRANSCRIPT_MAX), the new state and the variables. Refusals keep the
 * transcript and say why.
 */
async function testTurn(request: Request, fctx: Parameters<typeof testDraft>[0], id: string) {
  const form = await request.formData();
  const parsed = transcriptSchema.safeParse(jsonOf(form.get("transcript")) ?? []);
  const before: TestEntry[] = parsed.success ? parsed.data : [];
  const state = jsonOf(form.get("state"));
  const op = form.get("op");
  const answer = form.get("answer");
  const message = typeof answer === "string" && answer ? answer : form.get("message");
  const kept = { transcript: before, state, status: (state as { status?: string } | null)?.status ?? null, waiting: null, can_skip: false, vars: {} };
  try {
    await requireCsrf(request, form);
    const restart = op === "restart" || !state;
    const { data } = await testDraft(fctx, id, {
      ...(restart ? { reset: true } : { state }),
      ...(!restart && op === "skip" ? { skip: true } : {}),
      ...(!restart && op !== "skip" ? { message: typeof message === "string" ? message : "" } : {}),
    });
    const transcript = [...(restart ? [] : before), ...data.entries].slice(-TRANSCRIPT_MAX);
    const test: TestPanelData = { transcript, state: data.state, status: data.status, waiting: data.waiting, can_skip: data.can_skip, vars: data.vars };
    return json({ test }, { headers: { "Cache-Control": "private, no-store" } });
  } catch (e) {
    if (!isAppError(e)) throw e;
    const test: TestPanelData = { ...kept, ...restoreView(state), error: `errors.${e.code}`, params: e.params };
    return json({ test }, { status: e.status });
  }
}

/** The previous turn's view of a state (after a refused turn the panel stays where it was). */
function restoreView(state: unknown): Partial<TestPanelData> {
  if (!state || typeof state !== "object") return {};
  const s = state as { status?: string; waiting?: string | null; wake_at?: string | null; vars?: Record<string, string> };
  return { status: s.status ?? null, waiting: s.waiting ?? null, can_skip: s.status === "waiting" && Boolean(s.wake_at), vars: s.vars && typeof s.vars === "object" ? s.vars : {} };
}

/** The flow's steps, each with its issues, readable without JavaScript. */
function StepList({ draft, issues }: { draft: DraftLike; issues: IssueLike[] }) {
  const { t } = useTranslation("flows");
  const text = useErrorText();
  const general = issues.filter((i) => i.node === null || !draft.nodes.some((n) => n.id === i.node));
  const target = (source: string) => draft.edges.filter((e) => e.source === source);
  return (
    <div className="space-y-3" data-testid="flow-steps">
      {general.length ? (
        <ul className="text-sm text-destructive" role="alert">
          {general.map((i) => (
            <li key={`${i.node}-${i.field}-${i.key}`}>{text(i.key)}</li>
          ))}
        </ul>
      ) : null}
      <ol className="space-y-2">
        {draft.nodes.map((n) => {
          const own = issues.filter((i) => i.node === n.id);
          return (
            <li key={n.id} data-step={n.id} data-invalid={own.length ? "true" : undefined} className={`rounded-md border p-3 text-sm ${own.length ? "border-destructive" : ""}`}>
              <p className="font-medium">
                {t(`nodes.${n.type}`, { defaultValue: n.type })} <code className="text-xs text-muted-foreground">{n.id}</code>
              </p>
              {nodeSummary(n) ? <p className="break-words text-muted-foreground">{nodeSummary(n)}</p> : null}
              {target(n.id).length ? (
                <p className="text-xs text-muted-foreground">
                  {target(n.id)
                    .map((e) => `${t(`outputs.${e.output}`, { defaultValue: e.output })} → ${e.target}`)
                    .join(", ")}
                </p>
              ) : null}
              {own.length ? (
                <ul className="text-destructive">
                  {own.map((i) => (
                    <li key={`${i.field}-${i.key}`}>
                      {i.field ? `${i.field}: ` : ""}
                      {text(i.key)}
                    </li>
                  ))}
                </ul>
              ) : null}
            </li>
          );
        })}
      </ol>
    </div>
  );
}

/** The draft as JSON: the builder without JavaScript (and while the canvas loads). */
function JsonForm({ draft, errors, formErrors, busy }: { draft: string; errors?: string[]; formErrors?: string[]; busy: boolean }) {
  const { t } = useTranslation("flows");
  return (
    <Form method="post" className="space-y-3" data-testid="flow-json-form">
      <CsrfInput />
      <FormErrors errors={formErrors} />
      <label htmlFor="flow-draft" className="text-sm font-medium">
        {t("builder.json")}
      </label>
      <p id="flow-draft-description" className="text-sm text-muted-foreground">
        {t("builder.jsonHint")}
      </p>
      <Textarea id="flow-draft" name="draft" defaultValue={draft} rows={20} spellCheck={false} className="font-mono text-xs" aria-describedby="flow-draft-description" />
      <ErrorText errors={errors} />
      <div className="flex flex-wrap gap-2">
        <Button type="submit" name="intent" value="save" disabled={busy}>
          {t("builder.save")}
        </Button>
        <Button type="submit" name="intent" value="publish" variant="outline" disabled={busy}>
          {t("builder.publish")}
        </Button>
      </div>
    </Form>
  );
}

export default function FlowBuilder() {
  const { flow, departments } = useLoaderData<typeof loader>();
  const actionData = useActionData<FormReply | { test: TestPanelData }>();
  const last = actionData && "result" in actionData ? actionData : undefined;
  const testAnswer = actionData && "test" in actionData ? actionData.test : undefined;
  const [dirty, setDirty] = useState(false);
  const lng = (useRouteLoaderData<RootData>("root")?.lng ?? "pt-BR") as Lng;
  const busy = useNavigation().state === "submitting";
  const hydrated = useHydrated();
  const { t } = useTranslation("flows");
  const sent = last?.result.initialValue as { intent?: string; draft?: string } | undefined;
  const draftAnswer = sent?.intent === "save" || sent?.intent === "publish" ? last?.result : undefined;
  const answered = issuesFromFields(draftAnswer?.error as Record<string, string[]> | undefined);
  // Shown without JavaScript: the answer's issues when the post was refused, else the saved draft's.
  const issues: IssueLike[] = answered.length ? answered : flow.issues;
  const draft = flow.draft as DraftLike;
  const [form, fields] = useForm({
    id: `flow-settings-${flow.id}`,
    lastResult: sent?.intent === "settings" ? last?.result : undefined,
    defaultValue: { intent: "settings", name: flow.name, channel: flow.channel, trigger: flow.trigger, trigger_value: flow.trigger_value ?? "" },
    onValidate: useLazyValidate(() => import("~/forms/flows").then((m) => m.flowSettingsFormSchema)),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
  });
  const jsonForm = (
    <JsonForm
      draft={sent?.draft ?? JSON.stringify(draft, null, 2)}
      errors={draftAnswer?.error?.draft ?? undefined}
      formErrors={draftAnswer?.error?.[""] ?? undefined}
      busy={busy}
    />
  );
  return (
    <div className="space-y-6">
      <PageHeader
        description={
          <span className="flex flex-wrap items-center gap-2">
            <Badge variant={STATUS_BADGE[flow.status]} data-testid="flow-status">
              {t(`status.${flow.status}`)}
            </Badge>
            <span data-testid="flow-version">{flow.published_version ? t("list.versionN", { version: flow.published_version }) : t("list.unpublished")}</span>
            <span>
              {t(`channels.${flow.channel}`)} · {t(`triggers.${flow.trigger}`)}
              {flow.trigger_value ? ` "${flow.trigger_value}"` : ""}
            </span>
          </span>
        }
        actions={
          <Button asChild variant="outline">
            <Link to="/flows">{t("create.back")}</Link>
          </Button>
        }
      />
      <section aria-labelledby="flow-definition-title" className="space-y-3">
        <h2 id="flow-definition-title" className="sr-only">
          {t("builder.definition")}
        </h2>
        <div className="grid grid-cols-1 items-start gap-6 2xl:grid-cols-[minmax(0,1fr)_24rem]">
          {hydrated ? (
            <Suspense fallback={jsonForm}>
              <FlowCanvas draft={draft} answer={draftAnswer} busy={busy} onDirtyChange={setDirty} departments={departments} />
            </Suspense>
          ) : (
            <div className="grid grid-cols-1 gap-6 xl:grid-cols-[minmax(0,1fr)_minmax(0,1fr)]">
              {jsonForm}
              <StepList draft={draft} issues={issues} />
            </div>
          )}
          <TestPanel answer={testAnswer} dirty={hydrated && dirty} hasIssues={flow.issues.length > 0} />
        </div>
      </section>
      <div className="grid grid-cols-1 items-start gap-6 xl:grid-cols-2">
        <Card>
          <CardHeader>
            <CardTitle>{t("builder.settings")}</CardTitle>
          </CardHeader>
          <CardContent>
            <Form method="post" {...getFormProps(form)} className="space-y-4">
              <CsrfInput />
              <input type="hidden" name="intent" value="settings" />
              <FormErrors errors={form.errors} />
              <TextField field={fields.name} label={t("fields.name")} autoComplete="off" />
              <SelectField field={fields.channel} label={t("fields.channel")} options={FLOW_CHANNELS.map((c) => ({ value: c, label: t(`channels.${c}`) }))} />
              <SelectField field={fields.trigger} label={t("fields.trigger")} options={FLOW_TRIGGERS.map((c) => ({ value: c, label: t(`triggers.${c}`) }))} />
              {!hydrated || fields.trigger.value === "keyword" ? (
                <TextField field={fields.trigger_value} label={t("fields.keyword")} description={t("fields.keywordHint")} autoComplete="off" />
              ) : null}
              <Button type="submit" variant="outline" disabled={busy}>
                {t("builder.saveSettings")}
              </Button>
            </Form>
          </CardContent>
        </Card>
        <Card>
          <CardHeader>
            <CardTitle>{t("builder.versions")}</CardTitle>
            <CardDescription>{t("builder.versionsHint")}</CardDescription>
          </CardHeader>
          <CardContent>
            {flow.versions.length === 0 ? (
              <p className="text-sm text-muted-foreground">{t("builder.noVersions")}</p>
            ) : (
              <ul className="divide-y" data-testid="flow-versions">
                {flow.versions.map((v) => (
                  <li key={v.version} className="flex flex-wrap items-center justify-between gap-2 py-2 text-sm" data-version={v.version}>
                    <span>
                      {t("list.versionN", { version: v.version })} · {formatDate(v.published_at, lng, true)}
                      {v.version === flow.published_version ? (
                        <Badge variant="success" className="ms-2">
                          {t("builder.running")}
                        </Badge>
                      ) : null}
                    </span>
                    <IntentForm intent="restore" values={{ version: String(v.version) }}>
                      <Button type="submit" size="sm" variant="outline" disabled={busy} aria-label={t("builder.restoreLabel", { version: v.version })}>
                        {t("builder.restore")}
                      </Button>
                    </IntentForm>
                  </li>
                ))}
              </ul>
            )}
            {sent?.intent === "restore" ? <ErrorText errors={last?.result.error?.[""]} /> : null}
          </CardContent>
        </Card>
      </div>
    </div>
  );
}
