/**
 * /mail/templates/create and /mail/templates/create/{id}/{isLib?}/{isCopy?} (issue 17): write a new
 * e-mail template, edit one (/{id}), start one from a library entry (/{id}/1) or from a copy of a
 * template (/{id}/0/1). The MJML source is a plain textarea (works without JavaScript; with it, the
 * visual editor writes back into the same field); saved, it is compiled to HTML (an MJML error is
 * shown on the field). A saved template is previewed in a sandboxed frame, filled from a contact
 * of the account picked in a GET form, or with sample values. "Save to library" keeps the source
 * as one of the account's library entries.
 */
import { getFormProps, getTextareaProps, useForm, type FieldMetadata } from "@conform-to/react";
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { useTranslation } from "~/lib/react-i18n";
import { createEmailLib, getEmailLib } from "~api/email/libs";
import { createEmailTemplate, getEmailTemplate, previewContacts, previewEmailTemplate, updateEmailTemplate } from "~api/email/templates";
import { fillParts, SAMPLE_VALUES } from "~api/email/variables";
import { VisualEditorButton } from "~/components/email/visual-editor";
import { CheckboxField, TextareaField } from "~/components/forms/controls";
import { CsrfInput, FormErrors, TextField, useErrorText } from "~/components/forms/fields";
import { mailFrameDocument } from "~/components/settings/mail-body";
import { PageHeader } from "~/components/shell/page-header";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { FormField, fieldErrorId } from "~/components/ui/form-field";
import { NativeSelect, NativeSelectOption } from "~/components/ui/native-select";
import { Textarea } from "~/components/ui/textarea";
import { orHttpError, requireRoute } from "~/lib/auth.server";
import { handleForm, type FormReply } from "~/lib/forms.server";
import { redirectWithToast } from "~/lib/toast.server";
import { templateFormSchema } from "~/forms/email";
import { useLazyValidate } from "~/lib/lazy-validate";

export const handle = {
  crumb: (data: unknown) => ((data as { mode?: string } | undefined)?.mode === "edit" ? "emailTemplates:crumbs.edit" : "emailTemplates:crumbs.create"),
};

/** The source a new template starts from: one section, one column, a greeting. */
const STARTER = `<mjml>
  <mj-body background-color="#f3f4f6">
    <mj-section background-color="#ffffff" padding="24px">
      <mj-column>
        <mj-text font-size="16px">Olá, {{first_name}}!</mj-text>
      </mj-column>
    </mj-section>
  </mj-body>
</mjml>`;

type Mode = "new" | "edit" | "lib" | "copy";
const modeOf = (params: Record<string, string | undefined>): Mode =>
  !params.id ? "new" : params.isLib === "1" || params.isLib === "true" ? "lib" : params.isCopy === "1" || params.isCopy === "true" ? "copy" : "edit";

export async function loader({ request, params }: LoaderFunctionArgs) {
  const ctx = await requireRoute(request);
  const mode = modeOf(params);
  const contactId = new URL(request.url).searchParams.get("contact") || undefined;
  const headers = { "Cache-Control": "private, no-store" };
  if (mode === "new") {
    return json({ mode, id: null, initial: { name: "", subject: "", mjml: STARTER, text: "", active: true }, preview: null, contacts: [], contactId: null }, { headers });
  }
  if (mode === "lib") {
    const { data: lib } = await orHttpError(getEmailLib(ctx, params.id!));
    const preview = fillParts({ subject: lib.subject, html: lib.html, text: lib.text }, SAMPLE_VALUES);
    return json(
      { mode, id: lib.id, initial: { name: lib.name, subject: lib.subject, mjml: lib.mjml, text: lib.text ?? "", active: true }, preview, contacts: [], contactId: null },
      { headers },
    );
  }
  const { data: tpl } = await orHttpError(getEmailTemplate(ctx, params.id!));
  const initial = { name: tpl.name, subject: tpl.subject, mjml: tpl.mjml, text: tpl.text ?? "", active: tpl.active };
  if (mode === "copy") {
    const preview = fillParts({ subject: tpl.subject, html: tpl.html, text: tpl.text }, SAMPLE_VALUES);
    return json({ mode, id: tpl.id, initial, preview, contacts: [], contactId: null }, { headers });
  }
  const [preview, contacts] = await Promise.all([orHttpError(previewEmailTemplate(ctx, tpl.id, { contact_id: contactId })), previewContacts(ctx)]);
  return json({ mode, id: tpl.id, initial, preview: preview.data, contacts, contactId: contactId ?? null }, { headers });
}

export async function action({ request, params }: ActionFunctionArgs) {
  const ctx = await requireRoute(request);
  const mode = modeOf(params);
  return handleForm(request, templateFormSchema, async ({ intent, ...value }) => {
    if (intent === "library") {
      const { data } = await createEmailLib(ctx, { name: value.name, subject: value.subject, mjml: value.mjml, text: value.text });
      return redirectWithToast(request, "/mail/templates#library", { type: "success", title: "emailTemplates:library.saved", params: { name: data.name } });
    }
    // The form always shows the checkbox: not posted is unchecked.
    const input = { ...value, active: value.active ?? false };
    const { data } = mode === "edit" ? await updateEmailTemplate(ctx, params.id!, input) : await createEmailTemplate(ctx, input);
    return redirectWithToast(request, `/mail/templates/create/${data.id}`, {
      type: "success",
      title: mode === "edit" ? "emailTemplates:form.updated" : "emailTemplates:form.created",
      params: { name: data.name },
    });
  });
}

/** The MJML source: a large monospace textarea the visual editor (with JavaScript) writes back into. */
function SourceField({ field, label, description }: { field: FieldMetadata<string | undefined | null>; label: string; description: string }) {
  const text = useErrorText();
  const errors = field.errors?.map((e) => text(e));
  const { key, ...props } = getTextareaProps(field);
  return (
    <FormField label={label} htmlFor={field.id} error={errors} description={description}>
      <Textarea {...props} key={key} rows={18} spellCheck={false} className="min-h-72 font-mono text-xs" aria-describedby={errors?.length ? fieldErrorId(field.id) : undefined} />
    </FormField>
  );
}

export default function MailTemplateEdit() {
  const { mode, id, initial, preview, contacts, contactId } = useLoaderData<typeof loader>();
  const last = useActionData<FormReply>();
  const busy = useNavigation().state === "submitting";
  const { t } = useTranslation("emailTemplates");
  const defaults = mode === "copy" ? { ...initial, name: t("form.copyName", { name: initial.name }) } : initial;
  const [form, fields] = useForm({
    id: `email-template-${mode}-${id ?? "new"}`,
    lastResult: last?.result,
    defaultValue: { ...defaults, active: defaults.active ? "on" : undefined },
    onValidate: useLazyValidate(() => import("~/forms/email").then((m) => m.templateFormSchema)),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
  });
  return (
    <div className="space-y-6">
      <PageHeader
        description={t(`form.description.${mode}`)}
        actions={
          <Button asChild variant="outline">
            <Link to="/mail/templates">{t("form.back")}</Link>
          </Button>
        }
      />
      <div className="grid grid-cols-1 items-start gap-6 xl:grid-cols-2">
        <Card>
          <CardContent>
            <Form method="post" {...getFormProps(form)} className="space-y-4">
              <CsrfInput />
              <FormErrors errors={form.errors} />
              <TextField field={fields.name} label={t("fields.name")} autoComplete="off" />
              <TextField field={fields.subject} label={t("fields.subject")} description={t("fields.subjectHint")} autoComplete="off" />
              <SourceField field={fields.mjml} label={t("fields.mjml")} description={t("fields.mjmlHint")} />
              <VisualEditorButton textareaId={fields.mjml.id} />
              <TextareaField field={fields.text} label={t("fields.text")} description={t("fields.textHint")} />
              <CheckboxField field={fields.active} label={t("fields.active")} description={t("fields.activeHint")} />
              <div className="flex flex-wrap gap-2">
                <Button type="submit" name="intent" value="save" disabled={busy}>
                  {mode === "edit" ? t("form.save") : t("form.create")}
                </Button>
                <Button type="submit" name="intent" value="library" variant="outline" disabled={busy}>
                  {t("form.saveLibrary")}
                </Button>
              </div>
            </Form>
          </CardContent>
        </Card>
        <Card>
          <CardHeader>
            <CardTitle>{t("preview.title")}</CardTitle>
            <CardDescription>{preview ? (mode === "edit" ? t("preview.description") : t("preview.sample")) : t("preview.unsaved")}</CardDescription>
          </CardHeader>
          <CardContent className="space-y-4">
            {mode === "edit" ? (
              <Form method="get" className="flex flex-wrap items-end gap-2" data-testid="preview-contact-form">
                <div className="grid min-w-64 flex-1 gap-1">
                  <label htmlFor="preview-contact" className="text-sm font-medium">
                    {t("preview.contact")}
                  </label>
                  <NativeSelect id="preview-contact" name="contact" defaultValue={contactId ?? ""}>
                    <NativeSelectOption value="">{t("preview.sampleOption")}</NativeSelectOption>
                    {contacts.map((c) => (
                      <NativeSelectOption key={c.id} value={c.id}>
                        {c.label}
                      </NativeSelectOption>
                    ))}
                  </NativeSelect>
                </div>
                <Button type="submit" variant="outline">
                  {t("preview.show")}
                </Button>
              </Form>
            ) : null}
            {preview ? (
              <>
                <p className="text-sm">
                  <span className="text-muted-foreground">{t("fields.subject")}: </span>
                  <span data-testid="preview-subject">{preview.subject}</span>
                </p>
                <iframe
                  title={t("preview.frame")}
                  srcDoc={mailFrameDocument(preview.html)}
                  sandbox="allow-popups allow-popups-to-escape-sandbox"
                  referrerPolicy="no-referrer"
                  className="h-[32rem] w-full rounded-md border bg-white"
                  data-testid="preview-frame"
                />
              </>
            ) : null}
          </CardContent>
        </Card>
      </div>
    </div>
  );
}
