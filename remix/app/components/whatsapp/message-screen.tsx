/**
 * /whatsapp/history/{id} and /whatsapp/jv/history/{id}: one WhatsApp message of the account — who, what, price, Meta's message
 * id, the times of each status (São Paulo) — and its events in order: queued, sent, delivered,
 * read, or failed with Meta's error code and message. Until its status is final the page follows
 * it by itself (refetched every 2 s; without JavaScript a <noscript> meta refresh).
 */
import { useLoaderData, useRouteLoaderData } from "@remix-run/react";
import { useTranslation } from "~/lib/react-i18n";
import { isFinal, isMessageStatus } from "~api/messages/status";
import { REFRESH_MS, useRefresh } from "~/components/live/use-refresh";
import { PageHeader } from "~/components/shell/page-header";
import { formatDateTime } from "~/components/sms-reports/format";
import { SmsStatusBadge } from "~/components/sms-reports/status-badge";
import { ContentCard, FieldsCard, TimelineCard } from "~/components/messages/message-cards";
import { formatMoney } from "~/lib/format";
import type { Lng } from "~/lib/i18n";
import type { WhatsappMessageData } from "~/lib/whatsapp.server";
import type { RootData } from "~/root";

export function WhatsappMessageScreen() {
  const { message: m } = useLoaderData<WhatsappMessageData>();
  const lng = (useRouteLoaderData<RootData>("root")?.lng ?? "pt-BR") as Lng;
  const { t } = useTranslation("whatsapp");
  // Inbound messages and final statuses change no more.
  const following = m.direction === "outbound" && !(isMessageStatus(m.status) && isFinal(m.status));
  useRefresh(REFRESH_MS, following);
  return (
    <div className="space-y-6">
      {following ? (
        <noscript>
          <meta httpEquiv="refresh" content={String(REFRESH_MS / 1000)} />
        </noscript>
      ) : null}
      <PageHeader description={t("detail.description")} />
      <WhatsappMessageDetail m={m} lng={lng} />
    </div>
  );
}

type DetailMessage = WhatsappMessageData["message"] & { account?: { id: string; name: string } };

/** The message's fields, content and events (the detail screens' body; platform staff's history shows it with the message's account). */
export function WhatsappMessageDetail({ m, lng }: { m: DetailMessage; lng: Lng }) {
  const { t } = useTranslation(["whatsapp", "smsReports"]);
  const rows: Array<[string, React.ReactNode]> = [
    ...(m.account ? ([["account", m.account.name]] as Array<[string, React.ReactNode]>) : []),
    [
      "id",
      <code key="id" className="text-xs">
        {m.id}
      </code>,
    ],
    ["status", <SmsStatusBadge key="s" status={m.status} />],
    ["direction", t(`direction.${m.direction}`)],
    ["type", t(`messageType.${m.type}`, { defaultValue: m.type })],
    ["from", m.from],
    ["to", m.to],
    ["price", formatMoney(m.price, m.currency, lng)],
    [
      "providerId",
      m.provider_message_id ? (
        <code key="p" className="break-all text-xs">
          {m.provider_message_id}
        </code>
      ) : (
        "—"
      ),
    ],
    ["createdAt", formatDateTime(m.created_at, lng)],
    ["sentAt", formatDateTime(m.sent_at, lng) || "—"],
    ["deliveredAt", formatDateTime(m.delivered_at, lng) || "—"],
    ["readAt", formatDateTime(m.read_at, lng) || "—"],
    ["failedAt", formatDateTime(m.failed_at, lng) || "—"],
    [
      "error",
      m.error_code || m.error_message ? (
        <span key="e" data-error-code={m.error_code ?? ""}>
          {[m.error_code, m.error_message].filter(Boolean).join(" — ")}
        </span>
      ) : (
        "—"
      ),
    ],
  ];
  return (
    <div className="grid gap-6 lg:grid-cols-2">
      <FieldsCard title={t("detail.fieldsTitle")} rows={rows} label={(k) => t(`detail.fields.${k}`)} />
      <div className="space-y-6">
        <ContentCard title={t("detail.content")} body={m.body} />
        <TimelineCard events={m.events} lng={lng} ns="whatsapp" />
      </div>
    </div>
  );
}
