/**
 * /settings/messages: the account's texts and marketing window (ADR 071) — a signature appended to
 * the SMS and/or WhatsApp messages it is set for, an opt-out text appended to every SMS campaign
 * message, and the window campaigns of every channel go out in (weekdays and hours in São Paulo;
 * a campaign outside it is scheduled for its next opening). Shows what an SMS campaign message
 * becomes and when a campaign started now would go, from the saved settings. Owner and admin
 * change them; a plain form: works without JavaScript.
 */
import { getFormProps, useForm } from "@conform-to/react";
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation, useRouteLoaderData } from "@remix-run/react";
import { useTranslation } from "~/lib/react-i18n";
import { withSettingsTexts } from "~api/message-settings/apply";
import { minuteLabel, SIGNATURE_CHANNELS, WEEKDAYS } from "~api/message-settings/constants";
import { messagesSchema } from "~api/message-settings/schemas";
import { getMessages, messageSettingsOf, saveMessages } from "~api/message-settings/settings";
import { marketingSlot } from "~api/message-settings/window";
import { CheckboxField } from "~/components/forms/controls";
import { CsrfInput, ErrorText, FormErrors, TextField } from "~/components/forms/fields";
import { formatDateTime } from "~/components/sms-reports/format";
import { PageHeader } from "~/components/shell/page-header";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { orHttpError, requireRoute } from "~/lib/auth.server";
import { handleForm, type FormReply } from "~/lib/forms.server";
import { i18next } from "~/lib/i18n.server";
import { redirectWithToast } from "~/lib/toast.server";
import { useLazyValidate } from "~/lib/lazy-validate";
import type { RootData } from "~/root";

export const handle = { crumb: "settings:messages.title" };

export async function loader({ request }: LoaderFunctionArgs) {
  const ctx = await requireRoute(request);
  const { data, editable } = await orHttpError(getMessages(ctx));
  const saved = await messageSettingsOf(ctx.actor.accountId);
  const t = await i18next.getFixedT(request, "settings");
  const example = withSettingsTexts(t("messages.exampleBody"), saved, "sms", true);
  const nextOpening = marketingSlot(saved.window, new Date());
  return json({ data, editable, example, nextOpening: nextOpening?.toISOString() ?? null }, { headers: { "Cache-Control": "private, no-store" } });
}

export async function action({ request }: ActionFunctionArgs) {
  const ctx = await requireRoute(request);
  return handleForm(request, messagesSchema, async (value) => {
    await saveMessages(ctx, value);
    return redirectWithToast(request, "/settings/messages", { type: "success", title: "settings:messages.saved" });
  });
}

export default function SettingsMessages() {
  const { data, editable, example, nextOpening } = useLoaderData<typeof loader>();
  const lng = useRouteLoaderData<RootData>("root")?.lng ?? "pt-BR";
  const { t } = useTranslation(["settings", "common"]);
  const last = useActionData<FormReply & { params?: Record<string, unknown> }>();
  const busy = useNavigation().state === "submitting";
  const [form, fields] = useForm({
    id: "settings-messages",
    lastResult: last?.result,
    defaultValue: {
      signature: data.signature,
      optout_text: data.optout_text,
      window_enabled: data.window_enabled ? "on" : undefined,
      window_start: minuteLabel(data.window_start),
      window_end: minuteLabel(data.window_end),
    },
    onValidate: useLazyValidate(() => import("~api/message-settings/schemas").then((m) => m.messagesSchema)),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
  });
  // After a refused post the boxes keep what was posted; otherwise what is saved.
  const posted = last?.result.initialValue as { signature_channels?: unknown; window_days?: unknown } | undefined;
  const checked = (name: "signature_channels" | "window_days", saved: Array<string | number>) =>
    new Set(([] as unknown[]).concat(posted ? (posted[name] ?? []) : saved).map(String));
  const channels = checked("signature_channels", data.signature_channels);
  const days = checked("window_days", data.window_days);
  return (
    <div className="max-w-3xl space-y-6">
      <PageHeader
        description={t("messages.description")}
        actions={
          <Button asChild variant="outline">
            <Link to="/settings/resources">{t("resources.title")}</Link>
          </Button>
        }
      />
      <Form method="post" {...getFormProps(form)} className="space-y-6" data-testid="messages-form">
        <CsrfInput />
        <FormErrors errors={form.errors} params={last?.params} />
        <fieldset disabled={!editable} className="space-y-6">
          <Card>
            <CardHeader>
              <CardTitle>{t("messages.textsTitle")}</CardTitle>
              <CardDescription>{editable ? t("messages.textsHint") : t("messages.readOnly")}</CardDescription>
            </CardHeader>
            <CardContent className="space-y-4">
              <TextField field={fields.signature} label={t("messages.signature")} description={t("messages.signatureHint")} />
              <fieldset className="space-y-2">
                <legend className="text-sm font-medium">{t("messages.signatureChannels")}</legend>
                <div className="flex flex-wrap gap-4">
                  {SIGNATURE_CHANNELS.map((c) => (
                    <label key={c} className="flex items-center gap-2 text-sm">
                      <input type="checkbox" name="signature_channels" value={c} defaultChecked={channels.has(c)} className="size-4 accent-primary" />
                      {t(`messages.channels.${c}`)}
                    </label>
                  ))}
                </div>
                <ErrorText errors={fields.signature_channels.errors} />
              </fieldset>
              <TextField field={fields.optout_text} label={t("messages.optoutText")} description={t("messages.optoutHint")} />
            </CardContent>
          </Card>
          <Card>
            <CardHeader>
              <CardTitle>{t("messages.windowTitle")}</CardTitle>
              <CardDescription>{t("messages.windowHint")}</CardDescription>
            </CardHeader>
            <CardContent className="space-y-4">
              <CheckboxField field={fields.window_enabled as never} label={t("messages.windowEnabled")} />
              <fieldset className="space-y-2">
                <legend className="text-sm font-medium">{t("messages.windowDays")}</legend>
                <div className="grid grid-cols-2 gap-2 sm:grid-cols-4">
                  {WEEKDAYS.map((d) => (
                    <label key={d} className="flex items-center gap-2 text-sm">
                      <input type="checkbox" name="window_days" value={d} defaultChecked={days.has(String(d))} className="size-4 accent-primary" />
                      {t(`messages.days.${d}`)}
                    </label>
                  ))}
                </div>
                <ErrorText errors={fields.window_days.errors} />
              </fieldset>
              <div className="grid grid-cols-1 gap-4 sm:grid-cols-2">
                <TextField field={fields.window_start as never} label={t("messages.windowStart")} type={"time" as "text"} />
                <TextField field={fields.window_end as never} label={t("messages.windowEnd")} type={"time" as "text"} />
              </div>
            </CardContent>
          </Card>
        </fieldset>
        {editable ? (
          <Button type="submit" disabled={busy}>
            {t("common:actions.save")}
          </Button>
        ) : null}
      </Form>
      <Card data-testid="messages-effect">
        <CardHeader>
          <CardTitle>{t("messages.effectTitle")}</CardTitle>
        </CardHeader>
        <CardContent className="space-y-3 text-sm">
          <p className="text-muted-foreground">{t("messages.exampleLabel")}</p>
          <pre className="whitespace-pre-wrap rounded-md border bg-muted/40 p-3 font-sans" data-testid="messages-example">
            {example}
          </pre>
          <p data-testid="messages-next-opening">
            {!data.window_enabled ? t("messages.windowOff") : nextOpening ? t("messages.windowClosedNow", { when: formatDateTime(nextOpening, lng) }) : t("messages.windowOpenNow")}
          </p>
        </CardContent>
      </Card>
    </div>
  );
}
