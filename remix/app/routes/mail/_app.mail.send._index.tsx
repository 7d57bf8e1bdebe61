/**
 * /mail/send (issue 17): send an e-mail — from an address of a validated domain of the account
 * (the domains listed under the field; another is refused there with the spec's message), a
 * subject, HTML and/or text, to (mode):
 * - addresses typed (one or several: commas, spaces or lines): POST /email/messages's use-case
 *   (acceptEmail), then /mail/send/success;
 * - a contact group, or a CSV file streamed into the staging table while it uploads: a campaign
 *   (acceptEmailCampaign, ADR 038; {{variables}} filled per recipient), then its page
 *   /mail/campaigns/{id} with live counters;
 * now or at a São Paulo time. Priced and debited at accept, opted-out and denied addresses not
 * charged. The form is always multipart and every mode's fields are rendered (JavaScript only
 * hides the other modes'), so it works without JavaScript in every mode.
 */
import { getFormProps, getInputProps, getSelectProps, useForm } from "@conform-to/react";
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { useEffect, useState } from "react";
import { useTranslation } from "~/lib/react-i18n";
import { listEmailDomains } from "~api/email/domains";
import { mailSendFormSchema, type SendMode } from "~api/email/campaign-schemas";
import { SEND_MODES } from "~api/email/constants";
import { acceptEmailCampaign, emailSendGroups } from "~api/email/campaigns";
import { dropStagedEmailFile, stageEmailFile } from "~api/email/recipients-file";
import { toListField } from "~api/email/schemas";
import { acceptEmail } from "~api/email/send";
import { messageSettingsOf } from "~api/message-settings/settings";
import { listEmailTemplates } from "~api/email/templates";
import { AppError, isAppError } from "~api/lib/errors";
import { can } from "~api/policy/policy";
import type { StagedFile } from "~api/sms/accept";
import { localToIso } from "~api/sms/schedule";
import { SelectField, TextareaField } from "~/components/forms/controls";
import { CsrfInput, FormErrors, TextField, useErrorText } from "~/components/forms/fields";
import { PageHeader } from "~/components/shell/page-header";
import { Button } from "~/components/ui/button";
import { Card, CardContent } from "~/components/ui/card";
import { FormField } from "~/components/ui/form-field";
import { Input } from "~/components/ui/input";
import { NativeSelect, NativeSelectOption } from "~/components/ui/native-select";
import { orHttpError, requireRoute } from "~/lib/auth.server";
import { requireCsrf } from "~/lib/csrf.server";
import { handleForm, type FormReply } from "~/lib/forms.server";
import { redirectWithToast } from "~/lib/toast.server";
import { streamUpload } from "~/lib/uploads.server";
import { useLazyValidate } from "~/lib/lazy-validate";

export const handle = { crumb: "email:crumbs.send" };

export async function loader({ request }: LoaderFunctionArgs) {
  const ctx = await requireRoute(request);
  const [{ data }, groups, templates, settings] = await Promise.all([
    orHttpError(listEmailDomains(ctx, { status: "validated", limit: "200" })),
    orHttpError(emailSendGroups(ctx)),
    orHttpError(listEmailTemplates(ctx, { active: "true", limit: "200" })),
    messageSettingsOf(ctx.actor.accountId),
  ]);
  const template = new URL(request.url).searchParams.get("template");
  return json(
    {
      domains: data.map((d) => d.domain),
      groups,
      canDomains: can(ctx.actor, "/mail/domains"),
      templates: templates.data.map((t) => ({ value: t.id, label: t.name })),
      template: templates.data.some((t) => t.id === template) ? template : null,
      /** The account's default sender (/settings/resources, ADR 071): the form starts with it. */
      sender: { from: settings.email_from ?? "", from_name: settings.email_from ? settings.email_from_name : "" },
    },
    { headers: { "Cache-Control": "private, no-store" } },
  );
}

/** A campaign's missing {{variable}} is the form's error (no field of the form holds variables). */
function asFormError(e: unknown): unknown {
  if (!isAppError(e) || !e.fields) return e;
  const fields: Record<string, string[]> = {};
  for (const [k, v] of Object.entries(e.fields)) (fields[k.startsWith("variables.") ? "" : k === "to" ? "to" : k] ??= []).push(...v);
  return new AppError(e.code, { fields, params: e.params });
}

export async function action({ request }: ActionFunctionArgs) {
  const ctx = await requireRoute(request);
  let formData: FormData | undefined;
  let staged: StagedFile | null = null;
  let fileError: unknown = null;
  if (/^multipart\/form-data;/i.test(request.headers.get("Content-Type") ?? "")) {
    // The CSRF token and the mode come before the file: only a file-mode post with a valid token is read.
    const upload = await streamUpload(request, {
      fileField: "file",
      acceptFiles: async (f) =>
        f.get("mode") === "file" &&
        (await requireCsrf(request, f).then(
          () => true,
          () => false,
        )),
      consume: (files) => stageEmailFile(ctx, files),
    });
    formData = upload.fields;
    if (upload.outcome.status === "ok") staged = upload.outcome.value;
    if (upload.outcome.status === "error") fileError = upload.outcome.error;
  }
  try {
    return await handleForm(
      request,
      mailSendFormSchema,
      async (value) => {
        const scheduledAt = localToIso(value.scheduled_at);
        if (scheduledAt === undefined) throw new AppError("VALIDATION", { fields: { scheduled_at: ["validation.date"] } });
        const content = {
          from: value.from,
          from_name: value.from_name,
          subject: value.subject,
          html: value.html,
          text: value.text,
          ...(value.template_id ? { template_id: value.template_id } : {}),
          ...(scheduledAt ? { scheduled_at: scheduledAt } : {}),
        };
        const mode: SendMode = value.mode;
        if (mode === "list") {
          const variables = value.template_id && Object.keys(value.variables).length ? { variables: value.variables } : {};
          const { data } = await acceptEmail(ctx, { ...content, ...variables, to: toListField.parse(value.to ?? "") }, null);
          const first = data.messages[0];
          return redirectWithToast(request, `/mail/send/success?message=${first.id}&count=${data.messages.length}`, {
            type: "success",
            title: "email:send.accepted",
            params: { count: data.messages.length },
          });
        }
        if (mode === "file") {
          if (fileError) throw fileError;
          if (!staged) throw new AppError("VALIDATION", { fields: { file: ["validation.required"] } });
        }
        const answer = await acceptEmailCampaign(
          ctx,
          { ...content, name: value.name, ...(mode === "group" ? { group_id: value.group_id } : {}) },
          { file: staged ?? undefined },
        ).catch((e) => {
          throw asFormError(e);
        });
        return redirectWithToast(request, `/mail/campaigns/${answer.data.campaign_id}`, {
          type: "success",
          title: "emailCampaigns:send.campaignAccepted",
          params: { count: answer.data.summary.messages },
        });
      },
      { formData },
    );
  } finally {
    // Accepted: the transaction removed the rows (this deletes nothing); refused: they go now.
    await dropStagedEmailFile(staged).catch(() => undefined);
  }
}

export default function MailSend() {
  const { domains, groups, canDomains, templates, template, sender } = useLoaderData<typeof loader>();
  const { t: tt } = useTranslation("emailTemplates");
  const last = useActionData<FormReply & { params?: Record<string, string | number> }>();
  const busy = useNavigation().state === "submitting";
  const { t } = useTranslation(["email", "emailCampaigns"]);
  const errorText = useErrorText();
  const [form, fields] = useForm({
    id: "email-send",
    lastResult: last?.result,
    defaultValue: { mode: "list", from: sender.from, from_name: sender.from_name, ...(template ? { template_id: template } : {}) },
    onValidate: useLazyValidate(() => import("~api/email/campaign-schemas").then((m) => m.mailSendFormSchema)),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
  });
  const initialMode = ((last?.result.initialValue as Record<string, string> | undefined)?.mode as SendMode) || "list";
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  const [mode, setMode] = useState<SendMode>(initialMode);
  const show = (m: SendMode) => !hydrated || mode === m;
  const fileErrors = (fields as unknown as Record<string, { errors?: string[] }>).file?.errors?.map((e) => errorText(e, last?.params));
  return (
    <div className="space-y-6">
      <PageHeader description={t("send.description")} />
      {domains.length === 0 ? (
        <Card className="max-w-3xl">
          <CardContent className="space-y-3 text-sm">
            <p data-testid="no-domain">{t("send.noDomain")}</p>
            {canDomains ? (
              <Button asChild variant="outline" size="sm">
                <Link to="/mail/domains">{t("send.toDomains")}</Link>
              </Button>
            ) : null}
          </CardContent>
        </Card>
      ) : null}
      <Card className="max-w-3xl">
        <CardContent>
          <Form method="post" {...getFormProps(form)} encType="multipart/form-data" className="space-y-4">
            <CsrfInput />
            <FormErrors errors={form.errors} params={last?.params} />
            <div className="grid gap-4 sm:grid-cols-2">
              <TextField
                field={fields.from}
                label={t("send.from")}
                type="email"
                description={domains.length ? t("send.fromHint", { domains: domains.join(", ") }) : undefined}
                autoComplete="off"
              />
              <TextField field={fields.from_name} label={t("send.fromName")} autoComplete="off" />
            </div>
            <fieldset className="space-y-3">
              <legend className="mb-2 text-sm font-medium">{t("emailCampaigns:send.mode")}</legend>
              <div className="flex flex-wrap gap-2" role="radiogroup">
                {SEND_MODES.map((m) => (
                  <label
                    key={m}
                    className="flex cursor-pointer items-center gap-2 rounded-md border px-3 py-1.5 text-sm has-[:checked]:border-primary has-[:checked]:bg-primary/10"
                  >
                    <input type="radio" name="mode" value={m} defaultChecked={initialMode === m} onChange={() => setMode(m)} data-mode={m} />
                    {t(`emailCampaigns:send.modes.${m}`)}
                  </label>
                ))}
              </div>
              <p className="text-xs text-muted-foreground">{t("emailCampaigns:send.modesHint")}</p>
              <div hidden={!show("list")}>
                <TextareaField field={fields.to} label={t("send.to")} description={t("send.toHint")} />
              </div>
              <div hidden={!show("group")}>
                <FormField
                  label={t("emailCampaigns:send.group")}
                  htmlFor={fields.group_id.id}
                  error={fields.group_id.errors?.map((e) => errorText(e))}
                  description={groups.length ? t("emailCampaigns:send.groupHint", { examples: "{{first_name}}, {{name}}, {{company}}" }) : t("emailCampaigns:send.noGroups")}
                >
                  <NativeSelect {...getSelectProps(fields.group_id)} key={fields.group_id.key}>
                    <NativeSelectOption value="">—</NativeSelectOption>
                    {groups.map((g) => (
                      <NativeSelectOption key={g.id} value={g.id}>
                        {`${g.name} (${g.members})`}
                      </NativeSelectOption>
                    ))}
                  </NativeSelect>
                </FormField>
              </div>
              <div hidden={!show("file")}>
                <FormField
                  label={t("emailCampaigns:send.file")}
                  htmlFor="email-send-file"
                  error={fileErrors}
                  description={t("emailCampaigns:send.fileHint", { example: "{{nome}}" })}
                >
                  <Input id="email-send-file" name="file" type="file" accept=".csv,text/csv" aria-invalid={fileErrors?.length ? true : undefined} />
                </FormField>
              </div>
              <div hidden={!show("group") && !show("file")}>
                <TextField field={fields.name} label={t("emailCampaigns:send.name")} autoComplete="off" />
              </div>
            </fieldset>
            {templates.length ? (
              <div className="grid gap-4 rounded-md border p-4">
                <SelectField
                  field={fields.template_id}
                  label={tt("send.template")}
                  options={templates}
                  placeholder={tt("send.templateNone")}
                  description={tt("send.templateHint")}
                />
                <TextareaField field={fields.variables} label={tt("send.variables")} description={tt("send.variablesHint")} />
              </div>
            ) : null}
            <TextField field={fields.subject} label={t("send.subject")} autoComplete="off" />
            <TextareaField field={fields.html} label={t("send.html")} description={t("send.htmlHint")} />
            <TextareaField field={fields.text} label={t("send.text")} description={t("send.textHint")} />
            <FormField
              label={t("emailCampaigns:send.scheduledAt")}
              htmlFor={fields.scheduled_at.id}
              error={fields.scheduled_at.errors?.map((e) => errorText(e))}
              description={t("emailCampaigns:send.scheduledAtHint")}
            >
              <Input {...getInputProps(fields.scheduled_at, { type: "datetime-local" })} key={fields.scheduled_at.key} />
            </FormField>
            <Button type="submit" disabled={busy}>
              {t("send.submit")}
            </Button>
          </Form>
        </CardContent>
      </Card>
    </div>
  );
}
