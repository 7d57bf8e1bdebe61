/**
 * One SMS (/sms/history/{id} and /sms/reports/history/{id}): id, dates (São Paulo), sender,
 * recipient, type, cost, content, coding, direction, parts, carrier, the error with its reason,
 * the status timeline and, for a location message, a map (OpenStreetMap embed and link).
 */
import { useLoaderData, useRouteLoaderData } from "@remix-run/react";
import { useTranslation } from "~/lib/react-i18n";
import { formatDateTime } from "./format";
import { SmsStatusBadge } from "./status-badge";
import { PageHeader } from "~/components/shell/page-header";
import { ContentCard, DetailSection, FieldsCard, TimelineCard } from "~/components/messages/message-cards";
import { formatMoney } from "~/lib/format";
import { osm } from "~/lib/map";
import type { detailLoader } from "~/lib/sms-reports.server";
import type { RootData } from "~/root";

/** Error codes with their own explanation; others show the provider's text. */
export const KNOWN_ERROR_CODES = ["UNDELIV", "EXPIRED", "REJECTD", "DELETED", "UNKNOWN", "optout", "deny_list", "invalid_number", "unavailable"] as const;

export function MessageDetail() {
  const { message: m } = useLoaderData<typeof detailLoader>();
  const lng = useRouteLoaderData<RootData>("root")?.lng ?? "pt-BR";
  const { t } = useTranslation(["smsReports", "errors"]);
  const reason = (() => {
    if (!m.error_code && !m.error_message) return "";
    if (m.error_code && (KNOWN_ERROR_CODES as readonly string[]).includes(m.error_code)) return t(`errorCodes.${m.error_code}`);
    if (m.error_message?.startsWith("errors.")) return t(`errors:${m.error_message.slice(7)}`, { defaultValue: m.error_message });
    return m.error_message ?? "";
  })();
  const rows: Array<[string, React.ReactNode]> = [
    [
      "id",
      <code key="id" className="text-xs">
        {m.id}
      </code>,
    ],
    ["status", <SmsStatusBadge key="s" status={m.status} />],
    ["createdAt", formatDateTime(m.created_at, lng)],
    ["scheduledAt", formatDateTime(m.scheduled_at, lng) || "—"],
    ["sentAt", formatDateTime(m.sent_at, lng) || "—"],
    ["deliveredAt", formatDateTime(m.delivered_at, lng) || "—"],
    ["sender", m.from || "—"],
    ["recipient", m.to],
    ["type", t(`type.${m.type === "location" ? "location" : "text"}`)],
    ["direction", t(`direction.${m.direction}`)],
    ["coding", m.coding ? t(`coding.${m.coding}`) : "—"],
    ["parts", String(m.segments)],
    ["cost", formatMoney(m.price, m.currency, lng)],
    ["route", m.route ?? "—"],
    ["carrier", m.carrier ?? "—"],
    [
      "error",
      m.error_code || m.error_message ? (
        <span key="e" data-error-code={m.error_code ?? ""}>
          {[m.error_code, reason].filter(Boolean).join(" — ")}
        </span>
      ) : (
        "—"
      ),
    ],
  ];
  const map = m.type === "location" && m.latitude !== null && m.longitude !== null ? osm(m.latitude, m.longitude) : null;
  return (
    <div className="space-y-6">
      <PageHeader description={t("detail.description")} />
      <div className="grid gap-6 lg:grid-cols-2">
        <FieldsCard title={t("detail.fieldsTitle")} rows={rows} label={(k) => t(`detail.fields.${k}`)} />
        <div className="space-y-6">
          <ContentCard title={t("detail.content")} body={m.body} />
          {map ? (
            <DetailSection title={t("detail.map")} className="space-y-2">
              <iframe title={t("detail.map")} src={map.embed} className="h-64 w-full rounded-md border" loading="lazy" />
              <a href={map.link} target="_blank" rel="noreferrer" className="text-sm text-primary hover:underline" data-map-link>
                {t("detail.openMap", { lat: m.latitude, lon: m.longitude })}
              </a>
            </DetailSection>
          ) : null}
          <TimelineCard events={m.events} lng={lng} ns="smsReports" />
        </div>
      </div>
    </div>
  );
}
