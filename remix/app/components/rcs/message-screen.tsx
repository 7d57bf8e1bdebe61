/**
 * /rcs/history/{id} and /rcs/success?id=: one RCS message of the account (spec section 2: id, sent
 * date, sender, recipient, type, cost, content) with its content drawn as the handset shows it
 * (./preview.tsx, server-rendered), its status timeline, the error when it failed, the SMS that
 * stood in for it (a handset not RCS-capable: its status, cost and timeline) and what the handset
 * answered (suggestion taps and replies arrive as inbound messages). Until its status is final
 * the detail follows it (refetched every 2 s; without JavaScript a <noscript> meta refresh).
 */
import { Link, useLoaderData, useRouteLoaderData } from "@remix-run/react";
import { isFinal, isMessageStatus } from "~api/messages/status";
import { REFRESH_MS, useRefresh } from "~/components/live/use-refresh";
import { SendOutcomeCard } from "~/components/messages/send-outcome";
import { DetailSection, FieldsCard, TimelineCard } from "~/components/messages/message-cards";
import { PageHeader } from "~/components/shell/page-header";
import { formatDateTime } from "~/components/sms-reports/format";
import { SmsStatusBadge } from "~/components/sms-reports/status-badge";
import { Button } from "~/components/ui/button";
import { formatMoney } from "~/lib/format";
import type { Lng } from "~/lib/i18n";
import { useTranslation } from "~/lib/react-i18n";
import type { RcsMessageData, RcsSuccessData } from "~/lib/rcs.server";
import type { RootData } from "~/root";
import { RcsPreview, type PreviewContent } from "./preview";

type Message = RcsMessageData["message"];

const final = (s: string) => isMessageStatus(s) && isFinal(s);
/** An outbound message whose status (or its SMS leg's) may still change. */
const following = (m: Message) => m.direction === "outbound" && !(final(m.status) && (!m.fallback || final(m.fallback.status)));

/** The message as the handset showed it: the agent's messages in the phone; an inbound one (the handset's) as its text. */
function Content({ m }: { m: Message }) {
  const { t } = useTranslation("rcs");
  if (m.direction === "inbound" || !m.content) {
    return (
      <DetailSection title={t("history.detail.content")}>
        <p className="whitespace-pre-wrap break-words rounded-md bg-muted p-3 text-sm" data-field="body">
          {m.body}
        </p>
      </DetailSection>
    );
  }
  return <RcsPreview content={m.content as PreviewContent} agent={m.agent ? { name: m.agent.name, color: m.agent.color, logo_url: m.agent.logo_url } : null} />;
}

function FallbackCard({ m, lng }: { m: Message; lng: Lng }) {
  const { t } = useTranslation("rcs");
  if (!m.fallback) return null;
  return (
    <DetailSection title={t("history.detail.fallbackTitle")}>
      <div className="space-y-3 text-sm" data-testid="sms-fallback">
        <p>{t("history.detail.fallbackText")}</p>
        <dl className="grid grid-cols-[auto_1fr] gap-x-6 gap-y-2">
          <dt className="text-muted-foreground">{t("history.detail.fields.id")}</dt>
          <dd>
            <Link to={`/sms/history/${m.fallback.id}`} className="break-all text-xs text-primary hover:underline">
              {m.fallback.id}
            </Link>
          </dd>
          <dt className="text-muted-foreground">{t("history.detail.fields.status")}</dt>
          <dd>
            <SmsStatusBadge status={m.fallback.status} />
          </dd>
          <dt className="text-muted-foreground">{t("history.detail.fields.price")}</dt>
          <dd className="tabular-nums">{formatMoney(m.fallback.price, m.fallback.currency, lng)}</dd>
          <dt className="text-muted-foreground">{t("history.detail.fields.createdAt")}</dt>
          <dd>{formatDateTime(m.fallback.created_at, lng)}</dd>
        </dl>
        {m.fallback_events.length ? (
          <ol className="space-y-1 border-l pl-4">
            {m.fallback_events.map((e, i) => (
              <li key={i} className="flex flex-wrap items-center gap-2" data-fallback-event={e.status}>
                <SmsStatusBadge status={e.status} />
                <time dateTime={String(e.occurred_at ?? e.created_at)}>{formatDateTime(e.occurred_at ?? e.created_at, lng)}</time>
              </li>
            ))}
          </ol>
        ) : null}
      </div>
    </DetailSection>
  );
}

function ResponsesCard({ m, lng }: { m: Message; lng: Lng }) {
  const { t } = useTranslation("rcs");
  if (m.direction !== "outbound") return null;
  return (
    <DetailSection title={t("history.detail.responsesTitle")}>
      {m.responses.length === 0 ? (
        <p className="text-sm text-muted-foreground">{t("history.detail.noResponses")}</p>
      ) : (
        <ol className="space-y-2 text-sm" data-testid="rcs-responses">
          {m.responses.map((r) => (
            <li key={r.id} className="flex flex-wrap items-baseline gap-2">
              <time dateTime={String(r.created_at)} className="text-xs text-muted-foreground">
                {formatDateTime(r.created_at, lng)}
              </time>
              <Link to={`/rcs/history/${r.id}`} className="break-words text-primary hover:underline">
                {r.body || "—"}
              </Link>
            </li>
          ))}
        </ol>
      )}
    </DetailSection>
  );
}

/** The fields, the preview, the timeline, the SMS leg and the handset's answers. */
function Detail({ m, lng }: { m: Message; lng: Lng }) {
  const { t } = useTranslation(["rcs", "smsReports"]);
  const rows: Array<[string, React.ReactNode]> = [
    [
      "id",
      <code key="id" className="break-all text-xs" data-testid="message-id">
        {m.id}
      </code>,
    ],
    ["createdAt", formatDateTime(m.created_at, lng)],
    ["status", <SmsStatusBadge key="s" status={m.status} />],
    ["direction", t(`history.direction.${m.direction}`)],
    ["agent", m.agent?.name ?? "—"],
    [
      "from",
      <span key="f" className="break-all">
        {m.from}
      </span>,
    ],
    [
      "to",
      <span key="t" className="break-all">
        {m.to}
      </span>,
    ],
    ["type", t(`send.types.${m.type}`, { defaultValue: m.type })],
    ["price", `${formatMoney(m.price, m.currency, lng)}${m.price_class ? ` · ${t(`send.priceClass.${m.price_class}`, { defaultValue: m.price_class })}` : ""}`],
    [
      "fallback",
      m.fallback
        ? t("history.fallbackBadge", { status: t(`smsReports:status.${m.fallback.status}`, { defaultValue: m.fallback.status }) })
        : m.content && (m.content as { fallbackSms?: boolean }).fallbackSms
          ? t("history.detail.fallbackOn")
          : t("history.detail.fallbackOff"),
    ],
    ["sentAt", formatDateTime(m.sent_at, lng) || "—"],
    ["deliveredAt", formatDateTime(m.delivered_at, lng) || "—"],
    ["readAt", formatDateTime(m.read_at, lng) || "—"],
    [
      "error",
      m.error_code || m.error_message ? (
        <span key="e" className="text-destructive" data-error-code={m.error_code ?? ""}>
          {[m.error_code, m.error_message].filter(Boolean).join(" — ")}
        </span>
      ) : (
        "—"
      ),
    ],
  ];
  return (
    <div className="grid gap-6 lg:grid-cols-[minmax(0,1fr)_340px] lg:items-start">
      <div className="min-w-0 space-y-6">
        <FieldsCard title={t("history.detail.fieldsTitle")} rows={rows} label={(k) => t(`history.detail.fields.${k}`)} />
        <TimelineCard events={m.events} lng={lng} ns="smsReports" />
        <FallbackCard m={m} lng={lng} />
        <ResponsesCard m={m} lng={lng} />
      </div>
      <div className="lg:sticky lg:top-4">
        <Content m={m} />
      </div>
    </div>
  );
}

function Refresh({ on }: { on: boolean }) {
  useRefresh(REFRESH_MS, on);
  return on ? (
    <noscript>
      <meta httpEquiv="refresh" content={String(REFRESH_MS / 1000)} />
    </noscript>
  ) : null;
}

export function RcsMessageScreen() {
  const { message: m } = useLoaderData<RcsMessageData>();
  const lng = (useRouteLoaderData<RootData>("root")?.lng ?? "pt-BR") as Lng;
  const { t } = useTranslation("rcs");
  return (
    <div className="space-y-6">
      <Refresh on={following(m)} />
      <PageHeader description={t("history.detail.description")} />
      <Detail m={m} lng={lng} />
    </div>
  );
}

export function RcsSuccessScreen() {
  const { message: m } = useLoaderData<RcsSuccessData>();
  const lng = (useRouteLoaderData<RootData>("root")?.lng ?? "pt-BR") as Lng;
  const { t } = useTranslation(["rcs", "smsReports"]);
  return (
    <div className="space-y-6">
      <PageHeader description={t("send.success.description")} />
      <div className="grid gap-6 lg:grid-cols-[minmax(0,1fr)_340px] lg:items-start">
        <SendOutcomeCard
          title={t("send.success.title")}
          rows={[
            [
              "id",
              t("history.detail.fields.id"),
              <code key="id" className="break-all text-xs" data-testid="message-id">
                {m.id}
              </code>,
            ],
            ["to", t("history.detail.fields.to"), m.to],
            ["agent", t("history.detail.fields.agent"), m.agent?.name ?? "—"],
            ["status", t("history.detail.fields.status"), <SmsStatusBadge key="s" status={m.status} />],
            [
              "price",
              t("history.detail.fields.price"),
              `${formatMoney(m.price, m.currency, lng)}${m.price_class ? ` · ${t(`send.priceClass.${m.price_class}`, { defaultValue: m.price_class })}` : ""}`,
            ],
            ["createdAt", t("history.detail.fields.createdAt"), formatDateTime(m.created_at, lng)],
          ]}
        >
          <div className="flex flex-wrap gap-2">
            <Button asChild variant="outline">
              <Link to={`/rcs/history/${m.id}`}>{t("send.success.view")}</Link>
            </Button>
            <Button asChild variant="outline">
              <Link to="/rcs/history">{t("send.success.history")}</Link>
            </Button>
            <Button asChild>
              <Link to="/rcs/send">{t("send.success.another")}</Link>
            </Button>
          </div>
        </SendOutcomeCard>
        <Content m={m} />
      </div>
    </div>
  );
}
