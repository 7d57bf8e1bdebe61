/**
 * The widget settings screen: texts (the greeting, the message when no agent attends), position,
 * options, colors (#RRGGBB, native color inputs),
 * a preview of the saved look, the embed snippet with a copy button (JavaScript only; the snippet
 * is selectable without it) and "regenerate key" behind a confirmation.
 */
import { getFormProps, useForm } from "@conform-to/react";
import { Form, useNavigation } from "@remix-run/react";
import { useTranslation } from "~/lib/react-i18n";
import { type WidgetSettings } from "~api/live/schemas";
import { WIDGET_COLOR_PARTS, WIDGET_POSITIONS, WIDGET_TEXT_MAX } from "~api/live/constants";
import { CheckboxField, SelectField, TextareaField } from "~/components/forms/controls";
import { CsrfInput, ErrorText, FormErrors, TextField, useErrorText } from "~/components/forms/fields";
import { CopyButton } from "~/components/forms/copy-button";
import { useReplyFor } from "~/components/live/parts";
import { PageHeader } from "~/components/shell/page-header";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { Textarea } from "~/components/ui/textarea";
import { useLazyValidate } from "~/lib/lazy-validate";

type Widget = { widget_key: string; settings: WidgetSettings; snippet: string };

export function WidgetPreview({ s }: { s: WidgetSettings }) {
  const { t } = useTranslation("live");
  const c = s.colors;
  const align = s.position === "left" ? "items-start" : s.position === "center" ? "items-center" : "items-end";
  return (
    <div className={`flex flex-col gap-3 rounded-lg border bg-muted/40 p-4 ${align}`} data-testid="widget-preview">
      <div className="w-full max-w-72 overflow-hidden rounded-xl border shadow-md" style={{ background: c.messageList.bg, color: c.messageList.text }}>
        <div className="px-4 py-3 font-semibold" style={{ background: c.header.bg, color: c.header.text }}>
          {s.title_online}
        </div>
        <div className="space-y-2 p-3 text-sm">
          {s.welcome ? (
            <p className="max-w-[80%] rounded-lg px-3 py-2" style={{ background: c.receivedMessage.bg, color: c.receivedMessage.text }}>
              {s.welcome}
            </p>
          ) : null}
          {s.offline_message ? <p className="text-center text-xs opacity-80">{s.offline_message}</p> : null}
          <p className="max-w-[80%] rounded-lg px-3 py-2" style={{ background: c.receivedMessage.bg, color: c.receivedMessage.text }}>
            {t("widget.preview.received")}
          </p>
          <p className="ml-auto max-w-[80%] rounded-lg px-3 py-2" style={{ background: c.sentMessage.bg, color: c.sentMessage.text }}>
            {t("widget.preview.sent")}
          </p>
        </div>
        <div className="border-t px-3 py-2 text-sm" style={{ background: c.userInput.bg, color: c.userInput.text, borderColor: s.highlight_color }}>
          {t("widget.preview.input")}
        </div>
      </div>
      <div className="flex size-12 items-center justify-center rounded-full text-lg shadow-md" style={{ background: c.launcher.bg, color: c.launcher.text }} aria-hidden="true">
        💬
      </div>
    </div>
  );
}

export function WidgetScreen({ widget, canEdit }: { widget: Widget; canEdit: boolean }) {
  const { t } = useTranslation(["live", "common"]);
  const text = useErrorText();
  const busy = useNavigation().state === "submitting";
  const reply = useReplyFor();
  const last = reply.of("widget");
  const s = widget.settings;
  const [form, fields] = useForm({
    id: "widget-settings",
    lastResult: last,
    defaultValue: {
      title_online: s.title_online,
      title_offline: s.title_offline,
      welcome: s.welcome,
      offline_message: s.offline_message,
      position: s.position,
      highlight_color: s.highlight_color,
      enabled: s.enabled ? "on" : undefined,
      attachments: s.attachments ? "on" : undefined,
      emoji: s.emoji ? "on" : undefined,
    },
    onValidate: useLazyValidate(() => import("~api/live/schemas").then((m) => m.widgetSettingsSchema)),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
  });
  const sent = (last?.initialValue ?? {}) as Record<string, unknown>;
  const sentColor = (part: string, which: string) => {
    const v = (sent.colors as Record<string, Record<string, unknown>> | undefined)?.[part]?.[which];
    return typeof v === "string" ? v : undefined;
  };
  return (
    <div className="space-y-6">
      <PageHeader description={t("widget.description")} />
      <div className="grid grid-cols-1 items-start gap-6 xl:grid-cols-[minmax(0,1fr)_22rem]">
        <Card>
          <CardContent>
            <Form method="post" {...getFormProps(form)} className="space-y-6">
              <CsrfInput />
              <input type="hidden" name="intent" value="widget" />
              <FormErrors errors={form.errors} />
              <fieldset disabled={!canEdit} className="space-y-6">
                <div className="grid gap-4 md:grid-cols-2">
                  <TextField field={fields.title_online} label={t("widget.title_online")} />
                  <TextField field={fields.title_offline} label={t("widget.title_offline")} />
                  <TextareaField field={fields.welcome} label={t("widget.welcome")} description={t("widget.welcomeHelp", { max: WIDGET_TEXT_MAX })} className="md:col-span-2" />
                  <TextareaField
                    field={fields.offline_message}
                    label={t("widget.offline_message")}
                    description={t("widget.offlineHelp", { max: WIDGET_TEXT_MAX })}
                    className="md:col-span-2"
                  />
                  <SelectField field={fields.position} label={t("widget.position")} options={WIDGET_POSITIONS.map((p) => ({ value: p, label: t(`widget.positions.${p}`) }))} />
                  <TextField field={fields.highlight_color} label={t("widget.highlight_color")} type="color" />
                </div>
                <fieldset className="space-y-2">
                  <legend className="text-sm font-semibold">{t("widget.options")}</legend>
                  <CheckboxField field={fields.enabled as never} label={t("widget.enabled")} />
                  <CheckboxField field={fields.attachments as never} label={t("widget.attachments")} />
                  <CheckboxField field={fields.emoji as never} label={t("widget.emoji")} />
                </fieldset>
                <fieldset className="space-y-2">
                  <legend className="text-sm font-semibold">{t("widget.colors.title")}</legend>
                  <div className="grid gap-3 sm:grid-cols-2">
                    {WIDGET_COLOR_PARTS.map((part) => (
                      <div key={part} className="rounded-md border p-3">
                        <p className="mb-2 text-sm font-medium">{t(`widget.colors.${part}`)}</p>
                        <div className="flex gap-4">
                          {(["bg", "text"] as const).map((which) => {
                            const name = `colors.${part}.${which}`;
                            const errors = last?.error?.[name] ?? undefined;
                            return (
                              <label key={which} className="flex items-center gap-2 text-sm">
                                <input
                                  type="color"
                                  name={name}
                                  defaultValue={sentColor(part, which) ?? s.colors[part][which]}
                                  aria-label={t("widget.colors.part", { part: t(`widget.colors.${part}`), which: t(`widget.colors.${which}`) })}
                                  aria-invalid={errors?.length ? true : undefined}
                                  className="h-8 w-10 cursor-pointer rounded border"
                                />
                                {t(`widget.colors.${which}`)}
                                {errors?.length ? (
                                  <span role="alert" className="text-destructive">
                                    {errors.map((e) => text(e)).join(" ")}
                                  </span>
                                ) : null}
                              </label>
                            );
                          })}
                        </div>
                      </div>
                    ))}
                  </div>
                </fieldset>
              </fieldset>
              {canEdit ? (
                <Button type="submit" disabled={busy}>
                  {t("widget.submit")}
                </Button>
              ) : (
                <p className="text-sm text-muted-foreground">{t("widget.readOnly")}</p>
              )}
            </Form>
          </CardContent>
        </Card>
        <div className="space-y-6">
          <Card>
            <CardHeader>
              <CardTitle>{t("widget.preview.title")}</CardTitle>
              <CardDescription>{t("widget.preview.saved")}</CardDescription>
            </CardHeader>
            <CardContent>
              <WidgetPreview s={s} />
            </CardContent>
          </Card>
          <Card>
            <CardHeader>
              <CardTitle>{t("widget.embed.title")}</CardTitle>
              <CardDescription>{t("widget.embed.description")}</CardDescription>
            </CardHeader>
            <CardContent className="space-y-3">
              <Textarea readOnly value={widget.snippet} rows={4} className="font-mono text-xs" aria-label={t("widget.embed.title")} data-testid="widget-snippet" />
              <CopyButton text={widget.snippet} label={t("live:widget.embed.copy")} copiedLabel={t("live:widget.embed.copied")} />
              <div className="space-y-2 border-t pt-3">
                <p className="text-sm font-medium">{t("widget.key.title")}</p>
                <code className="block break-all rounded bg-muted px-2 py-1 text-xs" data-testid="widget-key">
                  {widget.widget_key}
                </code>
                {canEdit ? (
                  <details open={Boolean(reply.errorsOf("regenerate")?.length)}>
                    <summary className="inline-flex h-8 cursor-pointer list-none items-center rounded-md border border-destructive/40 px-3 text-sm font-medium text-destructive hover:bg-destructive/10">
                      {t("widget.key.regenerate")}
                    </summary>
                    <div className="mt-2 space-y-2 rounded-md border bg-popover p-3 text-sm shadow-sm">
                      <ErrorText errors={reply.errorsOf("regenerate")} />
                      <p>{t("widget.key.body")}</p>
                      <Form method="post">
                        <CsrfInput />
                        <input type="hidden" name="intent" value="regenerate" />
                        <Button type="submit" size="sm" variant="destructive">
                          {t("widget.key.confirm")}
                        </Button>
                      </Form>
                    </div>
                  </details>
                ) : null}
              </div>
            </CardContent>
          </Card>
        </div>
      </div>
    </div>
  );
}
