/**
 * /mail/history/{id}: one e-mail of the account — its fields (who, subject, price, the time of
 * each status in São Paulo, the error code and message of one not delivered), its counts of opens
 * and clicks, its events in order, and the e-mail as it was sent, rendered in a sandboxed frame
 * (no script runs; links open outside). Until it is delivered or failed the page follows it
 * (refetched every 2 s; without JavaScript a <noscript> meta refresh).
 */
import { useLoaderData, useRouteLoaderData } from "@remix-run/react";
import { useTranslation } from "~/lib/react-i18n";
import { EmailStatusBadge } from "~/components/email/status-badge";
import { REFRESH_MS, useRefresh } from "~/components/live/use-refresh";
import { DetailSection, FieldsCard, TimelineCard } from "~/components/messages/message-cards";
import { PageHeader } from "~/components/shell/page-header";
import { formatDateTime } from "~/components/sms-reports/format";
import type { EmailMessageData } from "~/lib/email-history.server";
import { formatMoney } from "~/lib/format";
import type { Lng } from "~/lib/i18n";
import type { RootData } from "~/root";

/** Statuses after which nothing but opens and clicks can come. */
const SETTLED = ["delivered", "opened", "clicked", "bounced", "dropped", "blocked", "failed", "optout", "rejected"];

export function EmailMessageScreen() {
  const { message: m, preview } = useLoaderData<EmailMessageData>();
  const lng = (useRouteLoaderData<RootData>("root")?.lng ?? "pt-BR") as Lng;
  const { t } = useTranslation("emailReports");
  const following = !SETTLED.includes(m.status);
  useRefresh(REFRESH_MS, following);
  return (
    <div className="space-y-6">
      {following ? (
        <noscript>
          <meta httpEquiv="refresh" content={String(REFRESH_MS / 1000)} />
        </noscript>
      ) : null}
      <PageHeader description={t("detail.description")} />
      <EmailMessageDetail m={m} preview={preview} lng={lng} />
    </div>
  );
}

type DetailMessage = EmailMessageData["message"] & { account?: { id: string; name: string } };

/** The message's fields, counts, events and rendered content (the detail screen's body; platform staff's history shows it with the message's account). */
export function EmailMessageDetail({ m, preview, lng }: { m: DetailMessage; preview: string; lng: Lng }) {
  const { t } = useTranslation(["emailReports", "smsReports"]);
  const when = (v: string | null) => formatDateTime(v, lng) || "—";
  const rows: Array<[string, React.ReactNode]> = [
    ...(m.account ? ([["account", m.account.name]] as Array<[string, React.ReactNode]>) : []),
    [
      "id",
      <code key="id" className="text-xs">
        {m.id}
      </code>,
    ],
    ["status", <EmailStatusBadge key="s" status={m.status} errorCode={m.error_code} errorMessage={m.error_message} />],
    ["from", m.from],
    ["to", m.to],
    ["subject", m.subject || "—"],
    ["price", formatMoney(m.price, m.currency, lng)],
    ["opens", String(m.opens)],
    ["clicks", String(m.clicks)],
    ["createdAt", when(m.created_at)],
    ["scheduledAt", when(m.scheduled_at)],
    ["sentAt", when(m.sent_at)],
    ["deliveredAt", when(m.delivered_at)],
    ["openedAt", when(m.opened_at)],
    ["failedAt", when(m.failed_at)],
    [
      "error",
      m.error_code || m.error_message ? (
        <span key="e" data-error-code={m.error_code ?? ""}>
          {[m.error_code, m.error_message ? t(`smsReports:errorCodes.${m.error_message}`, { defaultValue: m.error_message }) : null].filter(Boolean).join(" — ")}
        </span>
      ) : (
        "—"
      ),
    ],
  ];
  return (
    <div className="grid gap-6 lg:grid-cols-2">
      <div className="space-y-6">
        <FieldsCard title={t("detail.fieldsTitle")} rows={rows} label={(k) => t(`detail.fields.${k}`)} />
        <TimelineCard events={m.events} lng={lng} ns="emailReports" />
      </div>
      <DetailSection title={t("detail.preview")}>
        <iframe
          title={t("detail.previewFrame", { subject: m.subject })}
          srcDoc={preview}
          sandbox="allow-popups allow-popups-to-escape-sandbox"
          referrerPolicy="no-referrer"
          className="h-[32rem] w-full rounded-md border bg-white"
          data-testid="email-preview"
        />
      </DetailSection>
    </div>
  );
}
