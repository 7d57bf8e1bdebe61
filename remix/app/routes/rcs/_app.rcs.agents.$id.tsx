/**
 * /rcs/agents/{id}: one RCS agent of the account (spec section 2) — its brand and contacts, its
 * status, Google's agent id and the launch state at each carrier (Vivo, Claro, TIM); the edit form
 * while it is not launched (a rejected agent so edited is asked for again); and its keywords (an
 * inbound text equal to one is answered by the agent): add, turn on/off, delete. Everything is
 * the use-cases' (api/rcs/agents, api/rcs/keywords); plain forms: works without JavaScript.
 */
import { getFormProps, useForm } from "@conform-to/react";
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useNavigation, useRouteLoaderData } from "@remix-run/react";
import { agentRequestSchema, EDITABLE_STATUSES, keywordSchema } from "~api/rcs/agent-schema";
import { canManageAgents, getAgent, updateAgent } from "~api/rcs/agents";
import { createKeyword, deleteKeyword, listKeywords, updateKeyword } from "~api/rcs/keywords";
import { z } from "~api/lib/zod";
import { CheckboxField, TextareaField } from "~/components/forms/controls";
import { ConfirmDelete } from "~/components/forms/confirm-delete";
import { CsrfInput, FormErrors, TextField } from "~/components/forms/fields";
import { IntentForm } from "~/components/forms/intent-form";
import { AgentForm } from "~/components/rcs-agents/agent-form";
import { AgentStatusBadge, LaunchBadges } from "~/components/rcs-agents/badges";
import { PageHeader } from "~/components/shell/page-header";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "~/components/ui/table";
import { orHttpError, requireRoute } from "~/lib/auth.server";
import { deleteIntentSchema, handleForm, type FormReply } from "~/lib/forms.server";
import { formatDate } from "~/lib/format";
import type { Lng } from "~/lib/i18n";
import { useLazyValidate } from "~/lib/lazy-validate";
import { useTranslation } from "~/lib/react-i18n";
import { redirectWithToast } from "~/lib/toast.server";
import type { RootData } from "~/root";

export const handle = { crumb: "rcs:agents.detail.title" };

const toggleSchema = z.object({ intent: z.literal("keyword-toggle"), id: z.string().min(1, "validation.required") });

export async function loader({ request, params }: LoaderFunctionArgs) {
  const ctx = await requireRoute(request);
  const { data: agent } = await orHttpError(getAgent(ctx, params.id ?? ""));
  const { data: keywords } = await orHttpError(listKeywords(ctx, { agent_id: agent.id }));
  const manage = canManageAgents(ctx);
  return json({ agent, keywords, manage, editable: manage && EDITABLE_STATUSES.includes(agent.status) }, { headers: { "Cache-Control": "private, no-store" } });
}

export async function action({ request, params }: ActionFunctionArgs) {
  const ctx = await requireRoute(request);
  const id = params.id ?? "";
  const path = `/rcs/agents/${id}`;
  const intent = (await request.clone().formData()).get("intent");
  if (intent === "keyword-add") {
    return handleForm(request, keywordSchema, async (value) => {
      const { data } = await createKeyword(ctx, { ...value, agent_id: id });
      return redirectWithToast(request, `${path}#keywords`, { type: "success", title: "rcs:keywords.added", params: { keyword: data.keyword } });
    });
  }
  if (intent === "keyword-toggle") {
    return handleForm(request, toggleSchema, async ({ id: keywordId }) => {
      const { data: list } = await listKeywords(ctx, { agent_id: id });
      const k = list.find((x) => x.id === keywordId);
      if (!k) throw new Response("Not Found", { status: 404 });
      const { data } = await updateKeyword(ctx, k.id, { keyword: k.keyword, answer: k.answer, active: !k.active });
      return redirectWithToast(request, `${path}#keywords`, {
        type: "success",
        title: data.active ? "rcs:keywords.activated" : "rcs:keywords.deactivated",
        params: { keyword: data.keyword },
      });
    });
  }
  if (intent === "delete") {
    return handleForm(request, deleteIntentSchema, async ({ id: keywordId }) => {
      await deleteKeyword(ctx, keywordId);
      return redirectWithToast(request, `${path}#keywords`, { type: "success", title: "rcs:keywords.deleted" });
    });
  }
  return handleForm(request, agentRequestSchema, async (input) => {
    const { data } = await updateAgent(ctx, id, input);
    return redirectWithToast(request, path, { type: "success", title: "rcs:agents.detail.saved", params: { name: data.name } });
  });
}

function KeywordForm({ last, busy }: { last?: FormReply; busy: boolean }) {
  const { t } = useTranslation("rcs");
  const sent = last?.result.initialValue as { intent?: string } | undefined;
  const [form, fields] = useForm({
    id: "rcs-keyword-add",
    lastResult: sent?.intent === "keyword-add" ? last?.result : undefined,
    defaultValue: { active: "on" },
    onValidate: useLazyValidate(() => import("~api/rcs/agent-schema").then((m) => m.keywordSchema)),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
  });
  return (
    <Form method="post" {...getFormProps(form)} className="space-y-4">
      <CsrfInput />
      <input type="hidden" name="intent" value="keyword-add" />
      <FormErrors errors={form.errors} />
      <TextField field={fields.keyword} label={t("keywords.fields.keyword")} description={t("keywords.form.keywordHint")} autoComplete="off" />
      <TextareaField field={fields.answer} label={t("keywords.fields.answer")} />
      <CheckboxField field={fields.active} label={t("keywords.fields.active")} />
      <Button type="submit" disabled={busy}>
        {t("keywords.form.submit")}
      </Button>
    </Form>
  );
}

export default function RcsAgent() {
  const { agent, keywords, manage, editable } = useLoaderData<typeof loader>();
  const last = useActionData<FormReply>();
  const busy = useNavigation().state === "submitting";
  const lng = (useRouteLoaderData<RootData>("root")?.lng ?? "pt-BR") as Lng;
  const { t } = useTranslation("rcs");
  const sent = last?.result.initialValue as { intent?: string; id?: string } | undefined;
  const rows: Array<[string, string]> = [
    ["description", agent.description || "—"],
    ["phone", agent.phone],
    ["email", agent.email || "—"],
    ["website", agent.website],
    ["privacy_url", agent.privacy_url],
    ["terms_url", agent.terms_url],
    ["logo_url", agent.logo_url],
    ["banner_url", agent.banner_url],
  ];
  return (
    <div className="space-y-6">
      <PageHeader description={t("agents.detail.description")} />
      <Card>
        <CardHeader>
          <CardTitle>
            <h2 className="flex items-center gap-2">
              <span aria-hidden className="inline-block size-4 rounded-full border" style={{ backgroundColor: agent.color }} />
              <span data-agent-name>{agent.name}</span>
            </h2>
          </CardTitle>
          <CardDescription>{t("agents.detail.since", { date: formatDate(agent.created_at, lng, true) })}</CardDescription>
        </CardHeader>
        <CardContent className="space-y-4">
          <div className="flex flex-wrap items-center gap-2">
            <AgentStatusBadge status={agent.status} />
            {agent.rbm_agent_id ? (
              <span className="text-sm break-all text-muted-foreground" data-rbm-agent-id>
                {agent.rbm_agent_id}
              </span>
            ) : null}
          </div>
          <div>
            <h3 className="mb-1 text-sm font-semibold">{t("agents.fields.carriers")}</h3>
            <LaunchBadges launches={agent.launches} />
          </div>
          <dl className="grid gap-2 text-sm sm:grid-cols-[12rem_minmax(0,1fr)]">
            {rows.map(([k, v]) => (
              <div key={k} className="contents">
                <dt className="text-muted-foreground">{t(`agents.fields.${k}`)}</dt>
                <dd className="break-all">{v}</dd>
              </div>
            ))}
          </dl>
          {!editable && manage ? <p className="text-sm text-muted-foreground">{t("agents.detail.locked")}</p> : null}
        </CardContent>
      </Card>

      {editable ? (
        <Card>
          <CardHeader>
            <CardTitle>
              <h2>{t("agents.detail.editTitle")}</h2>
            </CardTitle>
            <CardDescription>{agent.status === "rejected" ? t("agents.detail.editRejected") : t("agents.detail.editIntro")}</CardDescription>
          </CardHeader>
          <CardContent>
            <AgentForm
              id="rcs-agent-edit"
              intent="edit"
              lastResult={sent?.intent === "edit" ? last?.result : undefined}
              defaultValue={agent}
              busy={busy}
              submit={t("agents.detail.save")}
            />
          </CardContent>
        </Card>
      ) : null}

      <Card id="keywords">
        <CardHeader>
          <CardTitle>
            <h2>{t("keywords.title")}</h2>
          </CardTitle>
          <CardDescription>{t("keywords.description")}</CardDescription>
        </CardHeader>
        <CardContent className="space-y-6">
          {keywords.length === 0 ? (
            <p className="py-4 text-center text-sm text-muted-foreground">{t("keywords.empty")}</p>
          ) : (
            <Table>
              <TableHeader>
                <TableRow>
                  <TableHead>{t("keywords.fields.keyword")}</TableHead>
                  <TableHead>{t("keywords.fields.answer")}</TableHead>
                  <TableHead>{t("keywords.fields.active")}</TableHead>
                  {manage ? (
                    <TableHead className="text-right">
                      <span className="sr-only">{t("keywords.actions")}</span>
                    </TableHead>
                  ) : null}
                </TableRow>
              </TableHeader>
              <TableBody>
                {keywords.map((k) => (
                  <TableRow key={k.id} data-keyword-id={k.id}>
                    <TableCell className="align-top font-medium">{k.keyword}</TableCell>
                    <TableCell className="max-w-80 align-top whitespace-pre-wrap">{k.answer}</TableCell>
                    <TableCell className="align-top" data-active={String(k.active)}>
                      {k.active ? t("keywords.on") : t("keywords.off")}
                    </TableCell>
                    {manage ? (
                      <TableCell className="space-y-2 text-right align-top">
                        <IntentForm intent="keyword-toggle" rowId={k.id}>
                          <Button
                            type="submit"
                            variant="outline"
                            size="sm"
                            aria-label={t(k.active ? "keywords.deactivateLabel" : "keywords.activateLabel", { keyword: k.keyword })}
                          >
                            {k.active ? t("keywords.deactivate") : t("keywords.activate")}
                          </Button>
                        </IntentForm>
                        <ConfirmDelete
                          id={k.id}
                          errors={sent?.intent === "delete" && sent.id === k.id ? last?.result.error?.[""] : undefined}
                          summary={t("keywords.delete.summary")}
                          label={t("keywords.delete.label", { keyword: k.keyword })}
                          body={t("keywords.delete.body", { keyword: k.keyword })}
                          confirm={t("keywords.delete.confirm")}
                        />
                      </TableCell>
                    ) : null}
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          )}
          {manage ? (
            <div className="max-w-xl">
              <h3 className="mb-2 text-sm font-semibold">{t("keywords.form.title")}</h3>
              <KeywordForm last={last} busy={busy} />
            </div>
          ) : null}
        </CardContent>
      </Card>
    </div>
  );
}
