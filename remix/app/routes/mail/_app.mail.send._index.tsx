/**
 * /mail/send (issue 17): send an e-mail — from an address of a validated domain of the account
 * (the domains listed under the field; another is refused there with the spec's message), to one
 * address or several (commas, spaces or lines), a subject, HTML and/or text. POST
 * /email/messages's use-case (acceptEmail) — or one of the account's active templates (with
 * variables as name=value lines; ?template= picks one) instead of subject and content —: priced and debited at accept, opted-out and denied
 * addresses not charged. Then /mail/send/success. A plain form: works without JavaScript.
 */
import { getFormProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { listEmailDomains } from "~api/email/domains";
import { sendEmailFormSchema } from "~api/email/schemas";
import { acceptEmail } from "~api/email/send";
import { listEmailTemplates } from "~api/email/templates";
import { can } from "~api/policy/policy";
import { SelectField, TextareaField } from "~/components/forms/controls";
import { CsrfInput, FormErrors, TextField } from "~/components/forms/fields";
import { PageHeader } from "~/components/shell/page-header";
import { Button } from "~/components/ui/button";
import { Card, CardContent } from "~/components/ui/card";
import { orHttpError, requireRoute } from "~/lib/auth.server";
import { handleForm, type FormReply } from "~/lib/forms.server";
import { redirectWithToast } from "~/lib/toast.server";

export const handle = { crumb: "email:crumbs.send" };

export async function loader({ request }: LoaderFunctionArgs) {
  const ctx = await requireRoute(request);
  const [{ data }, templates] = await Promise.all([
    orHttpError(listEmailDomains(ctx, { status: "validated", limit: "200" })),
    orHttpError(listEmailTemplates(ctx, { active: "true", limit: "200" })),
  ]);
  const template = new URL(request.url).searchParams.get("template");
  return json(
    {
      domains: data.map((d) => d.domain),
      canDomains: can(ctx.actor, "/mail/domains"),
      templates: templates.data.map((t) => ({ value: t.id, label: t.name, variables: t.variables })),
      template: templates.data.some((t) => t.id === template) ? template : null,
    },
    { headers: { "Cache-Control": "private, no-store" } },
  );
}

export async function action({ request }: ActionFunctionArgs) {
  const ctx = await requireRoute(request);
  return handleForm(request, sendEmailFormSchema, async (input) => {
    const { data } = await acceptEmail(ctx, input, null);
    const first = data.messages[0];
    return redirectWithToast(request, `/mail/send/success?message=${first.id}&count=${data.messages.length}`, {
      type: "success",
      title: "email:send.accepted",
      params: { count: data.messages.length },
    });
  });
}

export default function MailSend() {
  const { domains, canDomains, templates, template } = useLoaderData<typeof loader>();
  const { t: tt } = useTranslation("emailTemplates");
  const last = useActionData<FormReply>();
  const busy = useNavigation().state === "submitting";
  const { t } = useTranslation("email");
  const [form, fields] = useForm({
    id: "email-send",
    lastResult: last?.result,
    defaultValue: template ? { template_id: template } : undefined,
    onValidate: ({ formData }) => parseWithZod(formData, { schema: sendEmailFormSchema }),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
  });
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
          <Form method="post" {...getFormProps(form)} className="space-y-4">
            <CsrfInput />
            <FormErrors errors={form.errors} />
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
            <TextareaField field={fields.to} label={t("send.to")} description={t("send.toHint")} />
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
            <Button type="submit" disabled={busy}>
              {t("send.submit")}
            </Button>
          </Form>
        </CardContent>
      </Card>
    </div>
  );
}
