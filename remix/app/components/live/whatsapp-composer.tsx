/**
 * The composer of a WhatsApp room (issue 16, ADR 034): the contact's 24-hour window (open until
 * when, in São Paulo time, or closed) and, when it is closed, the picker of the number's approved
 * templates with one input per body variable. The rules (window, template, variables) are the
 * server's (api/whatsapp/live.ts); this only shows what GET …/composer answered and posts the
 * choice: a plain form (intent `template`) without JavaScript, the desk's send command with it.
 */
import { Form } from "@remix-run/react";
import { useEffect, useState } from "react";
import { useTranslation } from "~/lib/react-i18n";
import { CsrfInput, FormErrors } from "~/components/forms/fields";
import { Button } from "~/components/ui/button";
import { Input } from "~/components/ui/input";
import { Label } from "~/components/ui/label";
import { NativeSelect, NativeSelectOption } from "~/components/ui/native-select";
import { formatDate, formatInZone } from "~/lib/format";
import { TIME_ZONE, type Lng } from "~/lib/i18n";
import type { SendResult } from "./use-live-desk";

export type ComposerWindow = { open: boolean; last_inbound_at: string | null; expires_at: string | null };
export type ComposerTemplate = { id: string; name: string; language: string; category: string; body: string; variables: number };
export type SendErrorList = Extract<SendResult, { ok: false }>["errors"];

/** A send's reasons: message keys (translated here) or text the server already translated. */
export function SendErrors({ errors }: { errors?: SendErrorList | null }) {
  if (errors?.keys?.length) return <FormErrors errors={errors.keys} />;
  if (!errors?.texts?.length) return null;
  return (
    <div role="alert" className="rounded-md border border-destructive/40 bg-destructive/10 px-3 py-2 text-sm text-destructive">
      {errors.texts.map((e) => (
        <p key={e}>{e}</p>
      ))}
    </div>
  );
}

/** The line above the composer: open until HH:mm (São Paulo), closed, or unknown. */
export function WindowLine({ window: w, lng }: { window: ComposerWindow | null; lng: Lng }) {
  const { t } = useTranslation("liveDesk");
  if (!w)
    return (
      <p className="border-t bg-muted/40 px-3 py-1.5 text-xs text-muted-foreground" data-window="unknown" role="status">
        {t("composer.whatsapp.windowUnknown")}
      </p>
    );
  if (w.open && w.expires_at)
    return (
      <p className="border-t bg-success/10 px-3 py-1.5 text-xs" data-window="open" data-expires={w.expires_at} role="status">
        {t("composer.whatsapp.windowOpen", { time: formatInZone(new Date(w.expires_at), TIME_ZONE, "HH:mm"), date: formatDate(w.expires_at, lng) })}
      </p>
    );
  return (
    <p className="border-t bg-warning/10 px-3 py-1.5 text-xs" data-window="closed" role="status">
      {t("composer.whatsapp.windowClosed")}
    </p>
  );
}

/** The template's body with the values given so far; a blank variable keeps its placeholder. */
export const renderTemplate = (body: string, values: readonly string[]) => body.replace(/\{\{(\d+)\}\}/g, (m, n: string) => values[Number(n) - 1]?.trim() || m);

/**
 * Outside the window: choose an approved template, fill its variables, send it. Choosing is its
 * own GET form (the desk's URL with `template`), so without JavaScript the page comes back with
 * the chosen template's variables; with JavaScript the choice applies at once and that button goes.
 */
export function TemplatePicker({
  roomId,
  action,
  tab,
  initial,
  templates,
  onSend,
  errors,
}: {
  roomId: string;
  action: string;
  /** The desk's list tab, kept by the choose form. */
  tab: string;
  /** The template chosen by the URL (`template`), if any. */
  initial?: string | null;
  templates: ComposerTemplate[];
  onSend?: (template: { id: string; variables: string[] }, preview: string) => Promise<SendResult>;
  /** The page action's refusal (without JavaScript). */
  errors?: string[] | null;
}) {
  const { t } = useTranslation("liveDesk");
  const [chosen, setChosen] = useState(templates.some((x) => x.id === initial) ? initial! : (templates[0]?.id ?? ""));
  const [values, setValues] = useState<string[]>([]);
  const [busy, setBusy] = useState(false);
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  const [failed, setFailed] = useState<SendErrorList | null>(null);
  const template = templates.find((x) => x.id === chosen) ?? templates[0];
  if (!template)
    return (
      <p className="border-t p-3 text-sm text-muted-foreground" data-testid="template-picker">
        {t("composer.whatsapp.noTemplates")}
      </p>
    );
  const vars = Array.from({ length: template.variables }, (_, i) => values[i] ?? "");
  const preview = renderTemplate(template.body, vars);
  return (
    <div className="space-y-2 border-t p-3" data-testid="template-picker">
      <Form method="get" action="/live" className="space-y-1" onSubmit={(e) => hydrated && e.preventDefault()}>
        <input type="hidden" name="tab" value={tab} />
        <input type="hidden" name="room" value={roomId} />
        <Label htmlFor="wa-template">{t("composer.whatsapp.template")}</Label>
        <div className="flex gap-2">
          <NativeSelect
            id="wa-template"
            name="template"
            value={template.id}
            onChange={(e) => {
              setChosen(e.currentTarget.value);
              setValues([]);
              setFailed(null);
            }}
          >
            {templates.map((x) => (
              <NativeSelectOption key={x.id} value={x.id}>
                {`${x.name} (${x.language}) · ${t(`composer.whatsapp.category.${x.category}`, { defaultValue: x.category })}`}
              </NativeSelectOption>
            ))}
          </NativeSelect>
          {hydrated ? null : (
            <Button type="submit" variant="outline">
              {t("composer.whatsapp.chooseTemplate")}
            </Button>
          )}
        </div>
      </Form>
      <Form
        method="post"
        action={action}
        className="space-y-2"
        onSubmit={(e) => {
          if (!onSend) return;
          e.preventDefault();
          if (busy) return;
          setBusy(true);
          setFailed(null);
          void onSend({ id: template.id, variables: vars.map((v) => v.trim()) }, preview).then((r) => {
            setBusy(false);
            if (r.ok) setValues([]);
            else setFailed(r.errors);
          });
        }}
      >
        <CsrfInput />
        <input type="hidden" name="intent" value="template" />
        <input type="hidden" name="room_id" value={roomId} />
        <input type="hidden" name="template_id" value={template.id} />
        <SendErrors errors={failed ?? (errors?.length ? { keys: errors } : null)} />
        <figure className="rounded-md border bg-muted/40 p-2 text-sm">
          <figcaption className="text-xs text-muted-foreground">{t("composer.whatsapp.preview")}</figcaption>
          <p className="whitespace-pre-wrap" data-testid="template-preview">
            {preview}
          </p>
        </figure>
        {vars.map((v, i) => {
          const id = `wa-variable-${i + 1}`;
          return (
            <div key={id} className="space-y-1">
              <Label htmlFor={id}>{t("composer.whatsapp.variable", { n: i + 1 })}</Label>
              <Input
                id={id}
                name="variables"
                required
                maxLength={1000}
                value={v}
                onChange={(e) => {
                  const next = [...vars];
                  next[i] = e.currentTarget.value;
                  setValues(next);
                }}
              />
            </div>
          );
        })}
        <div className="flex items-center justify-between gap-2">
          <p className="text-xs text-muted-foreground">{t("composer.whatsapp.templateHelp")}</p>
          <Button type="submit" disabled={busy}>
            {t("composer.whatsapp.sendTemplate")}
          </Button>
        </div>
      </Form>
    </div>
  );
}
