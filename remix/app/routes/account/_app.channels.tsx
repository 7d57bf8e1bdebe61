/**
 * /channels: the account's channels. Its "Live chat channels" section connects a Telegram bot, a
 * Messenger page, an Instagram account and a Google Business Messages agent to live chat
 * attendance (ADR 017): one form per channel, the webhook URL to give the provider, disconnect
 * behind a confirmation. Secrets are written, never shown (not even back in a refused form).
 * Plain forms: no JavaScript needed.
 */
import { getFormProps, useForm } from "@conform-to/react";
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useNavigation, useRouteLoaderData } from "@remix-run/react";
import { useTranslation } from "~/lib/react-i18n";
import { connectChannel, disconnectChannel, listConnections, type ConnectionView } from "~api/live/channel-connections";
import { connectSchema, type ConnectableChannel } from "~api/live/channel-schemas";
import { CONNECTABLE } from "~api/live/channel-constants";
import { ConfirmDelete } from "~/components/forms/confirm-delete";
import { TextareaField } from "~/components/forms/controls";
import { CsrfInput, FormErrors, TextField } from "~/components/forms/fields";
import { PageHeader } from "~/components/shell/page-header";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader } from "~/components/ui/card";
import { orHttpError, requireRoute } from "~/lib/auth.server";
import { formatDate } from "~/lib/format";
import { deleteIntentSchema, handleForm, type FormReply } from "~/lib/forms.server";
import { redirectWithToast } from "~/lib/toast.server";
import type { RootData } from "~/root";
import { useLazyValidate } from "~/lib/lazy-validate";

export const handle = { crumb: "channels:title" };

const TITLES: Record<ConnectableChannel, string> = { telegram: "Telegram", messenger: "Messenger", instagram: "Instagram", google_business: "Google Business Messages" };
/** Secrets of the forms: never echoed back when a form is refused. */
const SECRET_FIELDS = ["bot_token", "access_token", "app_secret", "client_token", "service_account_key"];

export async function loader({ request }: LoaderFunctionArgs) {
  const ctx = await requireRoute(request);
  // Live chat channels need the omni plan: without it the section says so instead of failing.
  if (!ctx.actor.services.includes("omni")) return json({ connections: [] as ConnectionView[], planRequired: true });
  const { data } = await orHttpError(listConnections(ctx));
  return json({ connections: data, planRequired: false });
}

export async function action({ request }: ActionFunctionArgs) {
  const ctx = await requireRoute(request);
  const intent = (await request.clone().formData()).get("intent");
  if (intent === "delete") {
    return handleForm(request, deleteIntentSchema, async ({ id }) => {
      const { data } = await listConnections(ctx);
      const channel = data.find((c) => c.id === id)?.channel;
      await disconnectChannel(ctx, id);
      return redirectWithToast(request, "/channels", { type: "success", title: "channels:toast.disconnected", params: { channel: channel ? TITLES[channel] : "" } });
    });
  }
  return handleForm(
    request,
    connectSchema,
    async (value) => {
      await connectChannel(ctx, value);
      return redirectWithToast(request, "/channels", { type: "success", title: "channels:toast.connected", params: { channel: TITLES[value.channel] } });
    },
    { hideFields: SECRET_FIELDS },
  );
}

function ChannelCard({ channel, connection, last }: { channel: ConnectableChannel; connection?: ConnectionView; last?: FormReply }) {
  const { t } = useTranslation(["channels", "common"]);
  const lng = useRouteLoaderData<RootData>("root")?.lng ?? "pt-BR";
  const busy = useNavigation().state === "submitting";
  const sent = last?.result.initialValue as { intent?: string; id?: string; channel?: string } | undefined;
  const mine = sent?.intent === "connect" && sent.channel === channel;
  const [form, fields] = useForm({
    id: `connect-${channel}`,
    lastResult: mine ? last?.result : undefined,
    onValidate: useLazyValidate(() =>
      import("~api/live/channel-schemas").then(
        (m) =>
          ({ telegram: m.telegramConnectSchema, messenger: m.messengerConnectSchema, instagram: m.instagramConnectSchema, google_business: m.googleBusinessConnectSchema })[
            channel
          ],
      ),
    ),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
  });
  // biome-ignore lint/suspicious/noExplicitAny: the form's fields of whichever channel was posted; each branch reads its own
  const f = fields as Record<string, any>;
  return (
    <Card data-channel={channel}>
      <CardHeader>
        <div className="flex items-center justify-between gap-2">
          <h3 className="leading-none font-semibold">{t(`${channel}.title`)}</h3>
          <Badge variant={connection ? "default" : "secondary"}>{connection ? t("status.connected") : t("status.notConnected")}</Badge>
        </div>
        <CardDescription>{t(`${channel}.description`)}</CardDescription>
      </CardHeader>
      <CardContent className="space-y-4">
        {connection ? (
          <dl className="space-y-2 text-sm">
            <div>
              <dt className="text-muted-foreground">{t("account")}</dt>
              <dd className="font-medium">{connection.name || connection.external_id}</dd>
            </div>
            <div>
              <dt className="text-muted-foreground">{t("webhookUrl")}</dt>
              <dd className="font-mono text-xs break-all" data-webhook-url>
                {connection.webhook_url}
              </dd>
            </div>
            <div className="text-muted-foreground">{t("connectedAt", { date: formatDate(connection.updated_at, lng, true) })}</div>
            <ConfirmDelete
              id={connection.id}
              errors={sent?.intent === "delete" && sent.id === connection.id ? last?.result.error?.[""] : undefined}
              summary={t("disconnect.summary")}
              label={t("disconnect.label", { channel: TITLES[channel] })}
              body={t("disconnect.body", { channel: TITLES[channel] })}
              confirm={t("disconnect.confirm")}
            />
          </dl>
        ) : null}
        <Form method="post" {...getFormProps(form)} className="space-y-3" autoComplete="off">
          <CsrfInput />
          <input type="hidden" name="intent" value="connect" />
          <input type="hidden" name="channel" value={channel} />
          <FormErrors errors={form.errors} />
          {channel === "telegram" ? (
            <TextField field={f.bot_token} label={t("fields.bot_token")} type="password" autoComplete="off" />
          ) : channel === "google_business" ? (
            <>
              <TextField field={f.agent_id} label={t("fields.agent_id")} autoComplete="off" />
              <TextField field={f.client_token} label={t("fields.client_token")} type="password" autoComplete="off" />
              <TextareaField field={f.service_account_key} label={t("fields.service_account_key")} description={t("fields.service_account_key_hint")} />
            </>
          ) : (
            <>
              <TextField field={f.page_id} label={t(channel === "instagram" ? "fields.ig_id" : "fields.page_id")} autoComplete="off" />
              <TextField field={f.access_token} label={t("fields.access_token")} type="password" autoComplete="off" />
              <TextField field={f.app_secret} label={t("fields.app_secret")} type="password" autoComplete="off" />
              <TextField field={f.verify_token} label={t("fields.verify_token")} autoComplete="off" />
            </>
          )}
          <Button type="submit" className="w-full" variant={connection ? "outline" : "default"} disabled={busy}>
            {connection ? t("replace") : t("connect")}
          </Button>
        </Form>
      </CardContent>
    </Card>
  );
}

export default function Channels() {
  const { connections, planRequired } = useLoaderData<typeof loader>();
  const last = useActionData<FormReply>();
  const { t } = useTranslation(["channels", "common"]);
  const byChannel = Object.fromEntries(connections.map((c) => [c.channel, c])) as Partial<Record<ConnectableChannel, ConnectionView>>;
  return (
    <div className="space-y-6">
      <PageHeader description={t("description")} />
      <section aria-labelledby="live-channels" className="space-y-4">
        <div>
          <h2 id="live-channels" className="text-lg font-semibold">
            {t("live.title")}
          </h2>
          <p className="text-sm text-muted-foreground">{t("live.description")}</p>
        </div>
        {planRequired ? (
          <p className="rounded-md border px-4 py-6 text-center text-sm text-muted-foreground">{t("live.planRequired")}</p>
        ) : (
          <div className="grid grid-cols-1 items-start gap-6 lg:grid-cols-2">
            {CONNECTABLE.map((c) => (
              <ChannelCard key={c} channel={c} connection={byChannel[c] as ConnectionView | undefined} last={last} />
            ))}
          </div>
        )}
      </section>
    </div>
  );
}
