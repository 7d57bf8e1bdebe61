/**
 * /admin/rcs/agents (platform staff): every account's RCS agents, those awaiting review first —
 * each with its account, brand, contacts and a review form: the status (only Google's launch
 * moves: requested -> in review -> launched | rejected; launched <-> suspended), Google's agent id
 * (made from the name when launching without one) and the launch state at Vivo, Claro and TIM.
 * reviewAgent holds every rule and audits in the agent's account. Plain forms: no JavaScript needed.
 */
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { z } from "~api/lib/zod";
import { agentReviewSchema } from "~api/rcs/agent-schema";
import { AGENT_STATUSES, AGENT_TRANSITIONS, CARRIERS, LAUNCH_STATES } from "~api/rcs/constants";
import { reviewAgent, staffListAgents } from "~api/rcs/agents";
import { CsrfInput, useErrorText } from "~/components/forms/fields";
import { AgentStatusBadge, LaunchBadges } from "~/components/rcs-agents/badges";
import { PageHeader } from "~/components/shell/page-header";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { Input } from "~/components/ui/input";
import { Label } from "~/components/ui/label";
import { NativeSelect, NativeSelectOption } from "~/components/ui/native-select";
import { orHttpError, requireRoute } from "~/lib/auth.server";
import { handleForm, type FormReply } from "~/lib/forms.server";
import { useTranslation } from "~/lib/react-i18n";
import { redirectWithToast } from "~/lib/toast.server";

export const handle = { crumb: "rcs:agents.staff.title" };
const PATH = "/admin/rcs/agents";

export async function loader({ request }: LoaderFunctionArgs) {
  const ctx = await requireRoute(request);
  const status = new URL(request.url).searchParams.get("status") ?? "";
  const { data } = await orHttpError(staffListAgents(ctx, { status: (AGENT_STATUSES as readonly string[]).includes(status) ? status : undefined }));
  return json({ agents: data, status }, { headers: { "Cache-Control": "private, no-store" } });
}

export async function action({ request }: ActionFunctionArgs) {
  const ctx = await requireRoute(request);
  const reviewForm = agentReviewSchema.extend({ intent: z.literal("review"), id: z.string().min(1, "validation.required") });
  return handleForm(request, reviewForm, async ({ id, intent: _i, ...value }) => {
    const { data } = await reviewAgent(ctx, id, value);
    return redirectWithToast(request, PATH, { type: "success", title: "rcs:agents.staff.saved", params: { name: data.name } });
  });
}

export default function AdminRcsAgents() {
  const { agents, status } = useLoaderData<typeof loader>();
  const last = useActionData<FormReply>();
  const busy = useNavigation().state === "submitting";
  const { t } = useTranslation("rcs");
  const text = useErrorText();
  const sent = last?.result.initialValue as { id?: string } | undefined;
  return (
    <div className="space-y-6">
      <PageHeader description={t("agents.staff.description")} />
      <Form method="get" className="flex flex-wrap items-end gap-2">
        <div className="grid gap-1">
          <Label htmlFor="rcs-staff-status">{t("agents.fields.status")}</Label>
          <NativeSelect id="rcs-staff-status" name="status" defaultValue={status}>
            <NativeSelectOption value="">{t("agents.staff.allStatuses")}</NativeSelectOption>
            {AGENT_STATUSES.map((s) => (
              <NativeSelectOption key={s} value={s}>
                {t(`agents.status.${s}`)}
              </NativeSelectOption>
            ))}
          </NativeSelect>
        </div>
        <Button type="submit" variant="outline" size="sm">
          {t("agents.staff.filter")}
        </Button>
      </Form>
      {agents.length === 0 ? (
        <p className="py-6 text-center text-sm text-muted-foreground" data-empty>
          {t("agents.staff.empty")}
        </p>
      ) : null}
      {agents.map((a) => {
        const errors = sent?.id === a.id ? ((last?.result.error ?? {}) as Record<string, string[] | null | undefined>) : {};
        const allErrors = Object.values(errors)
          .flat()
          .filter((e): e is string => Boolean(e));
        return (
          <Card key={a.id} data-agent-id={a.id}>
            <CardHeader>
              <CardTitle>
                <h2 className="flex flex-wrap items-center gap-2">
                  <span aria-hidden className="inline-block size-3 rounded-full border" style={{ backgroundColor: a.color }} />
                  {a.name}
                  <AgentStatusBadge status={a.status} />
                </h2>
              </CardTitle>
              <CardDescription>
                {a.account_name} · {a.phone} · <span className="break-all">{a.website}</span>
              </CardDescription>
            </CardHeader>
            <CardContent className="space-y-4">
              <LaunchBadges launches={a.launches} />
              <Form method="post" className="grid items-end gap-3 sm:grid-cols-2 lg:grid-cols-3">
                <CsrfInput />
                <input type="hidden" name="intent" value="review" />
                <input type="hidden" name="id" value={a.id} />
                {allErrors.length ? (
                  <p role="alert" className="text-sm text-destructive sm:col-span-2 lg:col-span-3">
                    {allErrors.map((e) => text(e)).join(" ")}
                  </p>
                ) : null}
                <div className="grid gap-1">
                  <Label htmlFor={`st-${a.id}`}>{t("agents.fields.status")}</Label>
                  <NativeSelect id={`st-${a.id}`} name="status" defaultValue={a.status}>
                    {[a.status, ...AGENT_TRANSITIONS[a.status]].map((s) => (
                      <NativeSelectOption key={s} value={s}>
                        {t(`agents.status.${s}`)}
                      </NativeSelectOption>
                    ))}
                  </NativeSelect>
                </div>
                <div className="grid gap-1 lg:col-span-2">
                  <Label htmlFor={`rbm-${a.id}`}>{t("agents.fields.rbm_agent_id")}</Label>
                  <Input id={`rbm-${a.id}`} name="rbm_agent_id" defaultValue={a.rbm_agent_id ?? ""} placeholder="marca@rbm.goog" autoComplete="off" />
                </div>
                {CARRIERS.map((c) => (
                  <div key={c} className="grid gap-1">
                    <Label htmlFor={`${c}-${a.id}`}>{t(`agents.carriers.${c}`)}</Label>
                    <NativeSelect id={`${c}-${a.id}`} name={c} defaultValue={a.launches.find((l) => l.carrier === c)?.state ?? "pending"}>
                      {LAUNCH_STATES.map((s) => (
                        <NativeSelectOption key={s} value={s}>
                          {t(`agents.launch.${s}`)}
                        </NativeSelectOption>
                      ))}
                    </NativeSelect>
                  </div>
                ))}
                <Button type="submit" size="sm" disabled={busy} aria-label={t("agents.staff.saveLabel", { name: a.name })}>
                  {t("agents.staff.save")}
                </Button>
              </Form>
            </CardContent>
          </Card>
        );
      })}
    </div>
  );
}
