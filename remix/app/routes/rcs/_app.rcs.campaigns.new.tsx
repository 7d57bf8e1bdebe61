/**
 * /rcs/campaigns/new: start an RCS campaign to a contact group or a CSV file (the SMS file send's
 * rules: , or ; UTF-8 or Latin-1, the phone column by its header or its values), with a text, a
 * card (title, description, media link) or one of the account's RCS templates (a carousel is sent
 * by choosing its template), the SMS fallback and a schedule (São Paulo time). A plain multipart
 * form with CSRF that works without JavaScript; the file is streamed into the staging table while
 * it uploads, then api/rcs/bulk.ts accepts the campaign. Success goes to the campaign's page.
 */
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { isAppError } from "~api/lib/errors";
import { acceptRcsCampaign, stageRcsFile } from "~api/rcs/bulk";
import { rcsCampaignOptions } from "~api/rcs/campaign-view";
import type { StagedFile } from "~api/sms/accept";
import { dropStagedFile } from "~api/sms/recipients-file";
import { localToIso } from "~api/sms/schedule";
import { CsrfInput, FormErrors, useErrorText } from "~/components/forms/fields";
import { PageHeader } from "~/components/shell/page-header";
import { Button } from "~/components/ui/button";
import { Card, CardContent } from "~/components/ui/card";
import { FormField } from "~/components/ui/form-field";
import { Input } from "~/components/ui/input";
import { NativeSelect, NativeSelectOption } from "~/components/ui/native-select";
import { Textarea } from "~/components/ui/textarea";
import { orHttpError, requireRoute } from "~/lib/auth.server";
import { requireCsrf } from "~/lib/csrf.server";
import { useTranslation } from "~/lib/react-i18n";
import { redirectWithToast } from "~/lib/toast.server";
import { streamUpload } from "~/lib/uploads.server";

export const handle = { crumb: "rcs:campaigns.newTitle" };
const MODES = ["group", "file"] as const;
const KINDS = ["text", "card", "template"] as const;
type Values = Partial<Record<string, string>>;
type Reply = { errors: Record<string, string[]>; formErrors: string[]; params?: Record<string, string | number>; values: Values };

export async function loader({ request }: LoaderFunctionArgs) {
  const ctx = await requireRoute(request);
  const options = await orHttpError(rcsCampaignOptions(ctx));
  return json({ ...options, idempotencyKey: crypto.randomUUID() });
}

/** Where an error of the use-case is shown: its field on this form. */
function fieldOf(key: string, mode: string): string {
  if (key === "group_id" || key === "file") return mode === "file" ? "file" : "group_id";
  if (key.startsWith("content.images") || key === "content.type") return "template_id";
  if (key.startsWith("content.")) return key === "content.imageUrl" || key === "content.fileUrl" ? "imageUrl" : key.slice("content.".length);
  return key;
}

export async function action({ request }: ActionFunctionArgs) {
  const ctx = await requireRoute(request);
  const csrfOk = (fields: FormData) =>
    requireCsrf(request, fields).then(
      () => true,
      () => false,
    );
  let fields: FormData;
  let staged: StagedFile | null = null;
  let fileError: unknown = null;
  if (/^multipart\/form-data;/i.test(request.headers.get("Content-Type") ?? "")) {
    // The CSRF token and the mode come before the file: only a file-mode post with a valid token is read.
    const upload = await streamUpload(request, {
      fileField: "file",
      acceptFiles: async (f) => f.get("mode") === "file" && (await csrfOk(f)),
      consume: (files) => stageRcsFile(ctx, files),
    });
    fields = upload.fields;
    if (upload.outcome.status === "ok") staged = upload.outcome.value;
    if (upload.outcome.status === "error") fileError = upload.outcome.error;
  } else {
    fields = await request.formData().catch(() => new FormData());
  }
  const text = (name: string) => {
    const v = fields.get(name);
    return typeof v === "string" ? v.trim() : "";
  };
  const values: Values = Object.fromEntries(
    ["mode", "name", "agent_id", "group_id", "kind", "messageText", "messageDescription", "imageUrl", "template_id", "fallback_sms", "scheduled_at"].map((k) => [k, text(k)]),
  );
  const mode = values.mode === "file" ? "file" : "group";
  const fail = (status: number, errors: Record<string, string[]>, formErrors: string[] = [], params?: Record<string, string | number>) =>
    json({ errors, formErrors, params, values } satisfies Reply, { status });
  try {
    if (!(await csrfOk(fields))) return fail(403, {}, ["errors.CSRF"]);
    if (fileError) {
      if (!isAppError(fileError)) throw fileError;
      return fail(fileError.status, fileError.fields ?? { file: [`errors.${fileError.code}`] }, [], fileError.params);
    }
    if (mode === "file" && !staged) return fail(422, { file: ["validation.required"] });
    const scheduledAt = localToIso(values.scheduled_at);
    if (scheduledAt === undefined) return fail(422, { scheduled_at: ["validation.date"] });
    const kind = (KINDS as readonly string[]).includes(values.kind ?? "") ? values.kind : "text";
    const input: Record<string, unknown> = { agent_id: values.agent_id ?? "", fallback_sms: values.fallback_sms === "on" };
    if (values.name) input.name = values.name;
    if (scheduledAt) input.scheduled_at = scheduledAt;
    if (mode === "group") {
      if (!values.group_id) return fail(422, { group_id: ["sms.errors.recipientRequired"] });
      input.group_id = values.group_id;
    }
    if (kind === "template") {
      if (!values.template_id) return fail(422, { template_id: ["validation.required"] });
      input.template_id = values.template_id;
    } else if (kind === "card") {
      input.content = { type: "card", messageText: values.messageText, messageDescription: values.messageDescription, imageUrl: values.imageUrl };
    } else {
      input.content = { type: "text", messageText: values.messageText };
    }
    const answer = await acceptRcsCampaign(ctx, input, text("idempotency_key") || null, mode === "file" ? staged : null);
    return redirectWithToast(request, `/rcs/campaigns/${answer.data.campaign_id}`, {
      type: "success",
      title: "rcs:campaigns.created",
      params: { count: answer.data.summary.sendable },
    });
  } catch (e) {
    if (e instanceof Response) throw e;
    if (!isAppError(e)) throw e;
    if (!e.fields) return fail(e.status, {}, [`errors.${e.code}`], e.params);
    const errors: Record<string, string[]> = {};
    for (const [k, v] of Object.entries(e.fields)) (errors[fieldOf(k, mode)] ??= []).push(...v);
    return fail(e.status, errors, [], e.params);
  } finally {
    // Accepted: the transaction removed the rows (this deletes nothing); refused: they go now.
    await dropStagedFile(staged).catch(() => undefined);
  }
}

export default function NewRcsCampaign() {
  const data = useLoaderData<typeof loader>();
  const last = useActionData<Reply>();
  const busy = useNavigation().state === "submitting";
  const { t } = useTranslation(["rcs", "sms", "common"]);
  const errorText = useErrorText();
  const v = last?.values ?? {};
  const errs = (name: string) => last?.errors[name]?.map((e) => errorText(e, last.params));
  const id = (name: string) => `rcs-campaign-${name}`;
  const invalid = (name: string) => (errs(name)?.length ? true : undefined);
  return (
    <div className="space-y-6">
      <PageHeader description={t("campaigns.newDescription")} />
      <Card className="max-w-3xl">
        <CardContent>
          <Form method="post" encType="multipart/form-data" className="space-y-5" data-testid="rcs-campaign-form">
            <CsrfInput />
            <input type="hidden" name="idempotency_key" value={data.idempotencyKey} />
            <FormErrors errors={last?.formErrors} params={last?.params} />
            {data.agents.length === 0 ? <p className="text-sm text-destructive">{t("campaigns.noAgents")}</p> : null}

            <div className="grid gap-4 sm:grid-cols-2">
              <FormField label={t("campaigns.agent")} htmlFor={id("agent_id")} error={errs("agent_id")}>
                <NativeSelect id={id("agent_id")} name="agent_id" defaultValue={v.agent_id ?? data.agents[0]?.id ?? ""} aria-invalid={invalid("agent_id")}>
                  {data.agents.map((a) => (
                    <NativeSelectOption key={a.id} value={a.id}>
                      {a.name}
                    </NativeSelectOption>
                  ))}
                </NativeSelect>
              </FormField>
              <FormField label={t("campaigns.name")} htmlFor={id("name")} error={errs("name")} description={t("campaigns.nameHint")}>
                <Input id={id("name")} name="name" maxLength={120} defaultValue={v.name ?? ""} autoComplete="off" aria-invalid={invalid("name")} />
              </FormField>
            </div>

            <fieldset className="space-y-3">
              <legend className="mb-2 text-sm font-medium">{t("campaigns.recipients")}</legend>
              <div className="flex flex-wrap gap-2" role="radiogroup">
                {MODES.map((m) => (
                  <label
                    key={m}
                    className="flex cursor-pointer items-center gap-2 rounded-md border px-3 py-1.5 text-sm has-[:checked]:border-primary has-[:checked]:bg-primary/10"
                  >
                    <input type="radio" name="mode" value={m} defaultChecked={(v.mode || "group") === m} />
                    {t(`campaigns.mode.${m}`)}
                  </label>
                ))}
              </div>
              <p className="text-xs text-muted-foreground">{t("campaigns.modeHint")}</p>
              <FormField label={t("sms:send.group")} htmlFor={id("group_id")} error={errs("group_id")}>
                <NativeSelect id={id("group_id")} name="group_id" defaultValue={v.group_id ?? ""} aria-invalid={invalid("group_id")}>
                  <NativeSelectOption value="">{t("sms:send.groupNone")}</NativeSelectOption>
                  {data.groups.map((g) => (
                    <NativeSelectOption key={g.id} value={g.id}>
                      {t("sms:send.groupOption", { name: g.name, count: g.members })}
                    </NativeSelectOption>
                  ))}
                </NativeSelect>
              </FormField>
              <FormField label={t("sms:send.file")} htmlFor={id("file")} error={errs("file")} description={t("sms:send.fileHint")}>
                <Input id={id("file")} name="file" type="file" accept=".csv,text/csv" aria-invalid={invalid("file")} />
              </FormField>
            </fieldset>

            <fieldset className="space-y-3">
              <legend className="mb-2 text-sm font-medium">{t("campaigns.content")}</legend>
              <FormField label={t("campaigns.kind")} htmlFor={id("kind")} error={errs("kind")} description={t("campaigns.kindHint")}>
                <NativeSelect id={id("kind")} name="kind" defaultValue={v.kind || "text"}>
                  {KINDS.map((k) => (
                    <NativeSelectOption key={k} value={k}>
                      {t(`campaigns.kinds.${k}`)}
                    </NativeSelectOption>
                  ))}
                </NativeSelect>
              </FormField>
              <FormField label={t("campaigns.messageText")} htmlFor={id("messageText")} error={errs("messageText")} description={t("campaigns.messageTextHint")}>
                <Textarea id={id("messageText")} name="messageText" rows={4} defaultValue={v.messageText ?? ""} aria-invalid={invalid("messageText")} />
              </FormField>
              <div className="grid gap-4 sm:grid-cols-2">
                <FormField label={t("campaigns.messageDescription")} htmlFor={id("messageDescription")} error={errs("messageDescription")}>
                  <Input id={id("messageDescription")} name="messageDescription" defaultValue={v.messageDescription ?? ""} aria-invalid={invalid("messageDescription")} />
                </FormField>
                <FormField label={t("campaigns.imageUrl")} htmlFor={id("imageUrl")} error={errs("imageUrl")} description={t("campaigns.imageUrlHint")}>
                  <Input id={id("imageUrl")} name="imageUrl" type="url" defaultValue={v.imageUrl ?? ""} aria-invalid={invalid("imageUrl")} />
                </FormField>
              </div>
              <FormField label={t("campaigns.template")} htmlFor={id("template_id")} error={errs("template_id")} description={t("campaigns.templateHint")}>
                <NativeSelect id={id("template_id")} name="template_id" defaultValue={v.template_id ?? ""} aria-invalid={invalid("template_id")}>
                  <NativeSelectOption value="">{t("campaigns.templateNone")}</NativeSelectOption>
                  {data.templates.map((tpl) => (
                    <NativeSelectOption key={tpl.id} value={tpl.id}>
                      {`${tpl.name} (${t(`campaigns.types.${tpl.type}`)})`}
                    </NativeSelectOption>
                  ))}
                </NativeSelect>
              </FormField>
            </fieldset>

            <label className="flex items-start gap-2 text-sm">
              <input type="checkbox" name="fallback_sms" defaultChecked={v.fallback_sms === "on"} className="mt-1" />
              <span>{t("campaigns.fallback")}</span>
            </label>
            <FormField label={t("sms:send.schedule")} htmlFor={id("scheduled_at")} error={errs("scheduled_at")} description={t("sms:send.scheduleHint")}>
              <Input id={id("scheduled_at")} name="scheduled_at" type="datetime-local" defaultValue={v.scheduled_at ?? ""} aria-invalid={invalid("scheduled_at")} />
            </FormField>
            <Button type="submit" disabled={busy || data.agents.length === 0}>
              {busy ? t("campaigns.sending") : t("campaigns.submit")}
            </Button>
          </Form>
        </CardContent>
      </Card>
    </div>
  );
}
