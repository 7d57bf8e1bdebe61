/**
 * /whatsapp/send and /whatsapp/jv/send (the same screen, limited to the older integration's numbers): one WhatsApp message to one contact from one of the account's numbers — free
 * text inside the contact's 24-hour window, else an approved template with its variables (the
 * body's {{1}}…, and the text header's or the URL button's variable where the template has one).
 * The window of the chosen number and contact is shown with when it closes (São Paulo time).
 *
 * An image, video, document, audio or sticker goes by a public https link or by a file from the
 * computer (the form is multipart; the server checks the file's content against the kind's types
 * and size, and the provider fetches it by a signed link of ours). Audio and stickers take no caption.
 *
 * The loader reads ?number_id=&to=&type=&template=: without JavaScript the "Check" button posts,
 * and the action answers a redirect to that URL (the window and the chosen template's variables
 * then show); with JavaScript the same URL is loaded as the number, contact, type or template
 * change. "Send" posts once: the idempotency key (a hidden field made by the loader) makes a
 * double submit send one message. Success goes to /whatsapp/success with a toast.
 */
import { getFormProps, getInputProps, getSelectProps, getTextareaProps, useForm } from "@conform-to/react";
import { Form, Link, useActionData, useLoaderData, useNavigate, useNavigation, useRouteLoaderData } from "@remix-run/react";
import { useEffect, useRef, useState } from "react";
import { useTranslation } from "~/lib/react-i18n";
import { useLazyValidate } from "~/lib/lazy-validate";
import type { SendableTemplate } from "~api/whatsapp/history";
import { variablesOf } from "~api/whatsapp/constants";
import { CsrfInput, FormErrors, useErrorText } from "~/components/forms/fields";
import { PageHeader } from "~/components/shell/page-header";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { FormField } from "~/components/ui/form-field";
import { Input } from "~/components/ui/input";
import { NativeSelect, NativeSelectOption } from "~/components/ui/native-select";
import { Textarea } from "~/components/ui/textarea";
import { formatDate } from "~/lib/format";
import type { FormReply } from "~/lib/forms.server";
import type { Lng } from "~/lib/i18n";
import type { WhatsappSendData } from "~/lib/whatsapp.server";
import type { RootData } from "~/root";
import { CAPTIONED, isMediaType, MEDIA_ACCEPT, MEDIA_TYPES, sendUrl, TYPES } from "./send-options";

function WindowNotice({ state, to, errors }: { state: { open: boolean; last_inbound_at: string | null; expires_at: string | null } | null; to: string; errors: string[] | null }) {
  const { t } = useTranslation("whatsapp");
  const lng = (useRouteLoaderData<RootData>("root")?.lng ?? "pt-BR") as Lng;
  if (errors || !to || !state) {
    return (
      <p className="rounded-md border bg-muted/40 p-3 text-sm text-muted-foreground" data-window="unknown">
        {t("send.windowUnknown")}
      </p>
    );
  }
  return state.open ? (
    <p className="rounded-md border border-success/40 bg-success/10 p-3 text-sm" data-window="open" role="status">
      {t("send.windowOpen", { until: formatDate(state.expires_at, lng, true) })}
    </p>
  ) : (
    <p className="rounded-md border border-warning/40 bg-warning/10 p-3 text-sm" data-window="closed" role="status">
      {state.last_inbound_at ? t("send.windowClosedSince", { at: formatDate(state.expires_at, lng, true) }) : t("send.windowClosed")}
    </p>
  );
}

function TemplatePreview({ template }: { template: SendableTemplate }) {
  const { t } = useTranslation("whatsapp");
  return (
    <div className="space-y-1 rounded-md border bg-muted/40 p-3 text-sm" data-testid="template-preview">
      {template.header ? (
        <p className="font-semibold">{template.header.format === "TEXT" ? template.header.text : t(`headerType.${template.header.format.toLowerCase()}`)}</p>
      ) : null}
      <p className="whitespace-pre-wrap">{template.body}</p>
      {template.footer ? <p className="text-xs text-muted-foreground">{template.footer}</p> : null}
      {template.buttons.length ? (
        <ul className="flex flex-wrap gap-2 pt-1">
          {template.buttons.map((b, i) => (
            <li key={i} className="rounded-full border px-2.5 py-0.5 text-xs">
              {b.text}
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}

/** The send screen of /whatsapp/send and /whatsapp/jv/send (the loader says which numbers and where its links go). */
export function WhatsappSendScreen() {
  const data = useLoaderData<WhatsappSendData>();
  const last = useActionData<FormReply>();
  const navigation = useNavigation();
  const busy = navigation.state === "submitting";
  const navigate = useNavigate();
  const { t } = useTranslation(["whatsapp", "common"]);
  const errorText = useErrorText();
  const initial = (last?.result.initialValue ?? {}) as Partial<Record<string, string | string[]>>;
  const [form, fields] = useForm({
    id: "whatsapp-send",
    lastResult: last?.result,
    defaultValue: { from: data.numberId, to: data.to, type: data.type, template_id: data.templateId, ...data.prefill },
    onValidate: useLazyValidate(() => import("./send-form").then((m) => (formData: FormData) => m.formSchema(formData.get("intent")))),
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
  });
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  const [type, setType] = useState<string>((initial.type as string) || data.type);
  const formRef = useRef<HTMLFormElement>(null);
  const template = data.templates.find((x) => x.id === data.templateId);
  const errs = (name: string) => form.allErrors[name]?.map((e) => errorText(e));
  const variableValue = (i: number) => (Array.isArray(initial.variables) ? initial.variables[i] : undefined);

  /** With JavaScript: load the page for the number, contact, type and template now in the form (the window and the template's variables follow). */
  const reload = () => {
    const f = formRef.current;
    if (!f) return;
    const fd = new FormData(f);
    const v = (k: string) => String(fd.get(k) ?? "").trim();
    const url = sendUrl(data.base, { from: v("from"), to: v("to"), type: v("type"), template_id: v("template_id") });
    if (url !== `${window.location.pathname}${window.location.search}`) navigate(url, { replace: true, preventScrollReset: true });
  };

  const toErrors = errs("to") ?? data.toErrors?.map((e) => errorText(e));
  const { key: fromKey, ...fromProps } = getSelectProps(fields.from);
  const { key: templateKey, ...templateProps } = getSelectProps(fields.template_id);
  const { key: toKey, ...toProps } = getInputProps(fields.to, { type: "tel" });
  const { key: bodyKey, ...bodyProps } = getTextareaProps(fields.body);
  const { key: linkKey, ...linkProps } = getInputProps(fields.media_link, { type: "url" });
  const { key: captionKey, ...captionProps } = getTextareaProps(fields.caption);
  const media = isMediaType(type) ? type : null;

  return (
    <div className="space-y-6">
      <PageHeader description={t("send.description")} />
      <Card className="max-w-3xl">
        <CardContent>
          {data.numbers.length === 0 ? (
            <p className="text-sm text-muted-foreground" data-testid="no-numbers">
              {t("send.noNumbers")}
            </p>
          ) : (
            <Form method="post" {...getFormProps(form)} encType="multipart/form-data" ref={formRef} className="space-y-5">
              <CsrfInput />
              <input type="hidden" name="idempotency_key" value={data.idempotencyKey} />
              <FormErrors errors={form.errors} />
              <div className="grid gap-4 sm:grid-cols-2">
                <FormField label={t("send.from")} htmlFor={fields.from.id} error={errs("from")}>
                  <NativeSelect {...fromProps} key={fromKey} onChange={reload}>
                    {data.numbers.map((n) => (
                      <NativeSelectOption key={n.id} value={n.id}>
                        {n.label}
                      </NativeSelectOption>
                    ))}
                  </NativeSelect>
                </FormField>
                <FormField label={t("send.to")} htmlFor={fields.to.id} error={toErrors} description={t("send.toHint")}>
                  <Input {...toProps} key={toKey} autoComplete="off" onBlur={reload} />
                </FormField>
              </div>

              <div className="flex flex-wrap items-center gap-3">
                <Button type="submit" name="intent" value="check" variant="secondary" size="sm" formNoValidate>
                  {t("send.check")}
                </Button>
                {hydrated ? null : <span className="text-xs text-muted-foreground">{t("send.checkHint")}</span>}
              </div>
              <WindowNotice state={data.window} to={data.to} errors={data.toErrors} />

              <fieldset className="space-y-2">
                <legend className="mb-2 text-sm font-medium">{t("send.type")}</legend>
                <div className="flex flex-wrap gap-2" role="radiogroup">
                  {TYPES.map((ty) => (
                    <label
                      key={ty}
                      className="flex cursor-pointer items-center gap-2 rounded-md border px-3 py-1.5 text-sm has-[:checked]:border-primary has-[:checked]:bg-primary/10"
                    >
                      <input
                        type="radio"
                        name="type"
                        value={ty}
                        defaultChecked={((initial.type as string) || data.type) === ty}
                        onChange={() => {
                          setType(ty);
                          reload();
                        }}
                      />
                      {t(`send.types.${ty}`)}
                    </label>
                  ))}
                </div>
                {errs("type")?.length ? (
                  <p role="alert" className="text-sm text-destructive">
                    {errs("type")?.join(" ")}
                  </p>
                ) : null}
              </fieldset>

              <section hidden={hydrated && type !== "template"} className="space-y-4" aria-label={t("send.types.template")}>
                {data.templates.length === 0 ? (
                  <p className="text-sm text-muted-foreground" data-testid="no-templates">
                    {t("send.noTemplates")}{" "}
                    {data.canNewTemplate ? (
                      <Link to={`${data.base}/templates/new`} className="font-medium text-primary hover:underline">
                        {t("send.createTemplate")}
                      </Link>
                    ) : null}
                  </p>
                ) : (
                  <>
                    <FormField label={t("send.template")} htmlFor={fields.template_id.id} error={errs("template_id")}>
                      <NativeSelect {...templateProps} key={templateKey} onChange={reload}>
                        {data.templates.map((x) => (
                          <NativeSelectOption key={x.id} value={x.id}>
                            {t("send.templateOption", { name: x.name, language: x.language, category: t(`category.${x.category}`) })}
                          </NativeSelectOption>
                        ))}
                      </NativeSelect>
                    </FormField>
                    {template ? (
                      <div className="space-y-4" key={template.id} data-template-id={template.id}>
                        <TemplatePreview template={template} />
                        {errs("variables")?.length ? (
                          <p role="alert" className="text-sm text-destructive">
                            {errs("variables")?.join(" ")}
                          </p>
                        ) : null}
                        {template.header_variable ? (
                          <FormField label={t("send.headerVariable")} htmlFor="wa-send-header-variable" error={errs("header_variable")}>
                            <Input id="wa-send-header-variable" name="header_variable" defaultValue={(initial.header_variable as string) ?? ""} autoComplete="off" />
                          </FormField>
                        ) : null}
                        {variablesOf(template.body).length ? (
                          <div className="grid gap-4 sm:grid-cols-2">
                            {variablesOf(template.body).map((_, i) => (
                              <FormField key={i} label={t("send.variable", { n: i + 1 })} htmlFor={`wa-send-variable-${i}`} error={errs(`variables[${i}]`)}>
                                <Input
                                  id={`wa-send-variable-${i}`}
                                  name={`variables[${i}]`}
                                  defaultValue={variableValue(i) ?? ""}
                                  placeholder={template.examples[i] ?? ""}
                                  autoComplete="off"
                                />
                              </FormField>
                            ))}
                          </div>
                        ) : null}
                        {template.button_variable ? (
                          <FormField label={t("send.buttonVariable")} htmlFor="wa-send-button-variable" error={errs("button_variable")} description={t("send.buttonVariableHint")}>
                            <Input id="wa-send-button-variable" name="button_variable" defaultValue={(initial.button_variable as string) ?? ""} autoComplete="off" />
                          </FormField>
                        ) : null}
                      </div>
                    ) : null}
                  </>
                )}
              </section>

              <section hidden={hydrated && type !== "text"} aria-label={t("send.types.text")}>
                <FormField label={t("send.body")} htmlFor={fields.body.id} error={errs("body")} description={t("send.bodyHint")}>
                  <Textarea {...bodyProps} key={bodyKey} rows={4} />
                </FormField>
              </section>

              <section hidden={hydrated && !media} className="space-y-4" aria-label={t("send.media")} data-testid="media-fields">
                <h3 className="text-sm font-medium">{t("send.media")}</h3>
                <ul className="space-y-0.5 text-xs text-muted-foreground" data-testid="media-rules">
                  {MEDIA_TYPES.filter((k) => !hydrated || k === media).map((k) => (
                    <li key={k}>{t(`send.mediaRules.${k}`)}</li>
                  ))}
                </ul>
                <FormField label={t("send.mediaFile")} htmlFor="wa-send-media-file" error={errs("media_file")} description={t("send.mediaFileHint")}>
                  <Input id="wa-send-media-file" name="media_file" type="file" accept={hydrated && media ? MEDIA_ACCEPT[media] : undefined} />
                </FormField>
                <FormField label={t("send.mediaLink")} htmlFor={fields.media_link.id} error={errs("media_link")} description={t("send.mediaLinkHint")}>
                  <Input {...linkProps} key={linkKey} placeholder="https://" autoComplete="off" />
                </FormField>
                <div hidden={hydrated && !(CAPTIONED as readonly string[]).includes(type)}>
                  <FormField label={t("send.caption")} htmlFor={fields.caption.id} error={errs("caption")} description={t("send.captionHint")}>
                    <Textarea {...captionProps} key={captionKey} rows={2} />
                  </FormField>
                </div>
              </section>

              <Button type="submit" name="intent" value="send" disabled={busy}>
                {busy && navigation.formData?.get("intent") === "send" ? t("send.sending") : t("send.submit")}
              </Button>
            </Form>
          )}
        </CardContent>
      </Card>
      <Card className="max-w-3xl">
        <CardHeader>
          <CardTitle>
            <h2>{t("send.rulesTitle")}</h2>
          </CardTitle>
          <CardDescription>{t("send.rules")}</CardDescription>
        </CardHeader>
      </Card>
    </div>
  );
}
