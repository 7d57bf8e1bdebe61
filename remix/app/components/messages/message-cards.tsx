/**
 * The cards of a message's detail screen, shared by every channel's (SMS: components/sms-reports/
 * message-detail.tsx; WhatsApp: components/whatsapp/message-screen.tsx): the fields as a
 * definition list, the content, and the status timeline (each event with its time in São Paulo,
 * who reported it and, when it failed, the provider's code and text).
 */
import type { ReactNode } from "react";
import { useTranslation } from "~/lib/react-i18n";
import { formatDateTime } from "~/components/sms-reports/format";
import { SmsStatusBadge } from "~/components/sms-reports/status-badge";
import { Card, CardContent, CardHeader, CardTitle } from "~/components/ui/card";
import type { Lng } from "~/lib/i18n";

/** A card with a heading: the detail screens' section. */
function Section({ title, children, className }: { title: string; children: ReactNode; className?: string }) {
  return (
    <Card>
      <CardHeader>
        <CardTitle>
          <h2>{title}</h2>
        </CardTitle>
      </CardHeader>
      <CardContent className={className}>{children}</CardContent>
    </Card>
  );
}

/** The message's fields: [key, value] pairs, each labelled by `label(key)` (data-field=key). */
export function FieldsCard({ title, rows, label }: { title: string; rows: Array<[string, ReactNode]>; label: (key: string) => string }) {
  return (
    <Section title={title}>
      <dl className="grid grid-cols-[auto_1fr] gap-x-6 gap-y-2 text-sm">
        {rows.map(([k, v]) => (
          <div key={k} className="contents" data-field={k}>
            <dt className="text-muted-foreground">{label(k)}</dt>
            <dd>{v}</dd>
          </div>
        ))}
      </dl>
    </Section>
  );
}

export function ContentCard({ title, body }: { title: string; body: string }) {
  return (
    <Section title={title}>
      <p className="whitespace-pre-wrap break-words rounded-md bg-muted p-3 text-sm" data-field="body">
        {body}
      </p>
    </Section>
  );
}

export type TimelineEvent = {
  status: string;
  source: string;
  created_at: string | Date;
  occurred_at?: string | Date | null;
  error_code?: string | null;
  error_message?: string | null;
};

/**
 * The message's status events in order (when the provider says it happened, else when we learned
 * it); the texts from the channel's namespace `ns` (who "the provider" is differs: Meta for WhatsApp).
 */
export function TimelineCard({ events, lng, ns }: { events: TimelineEvent[]; lng: Lng; ns: "smsReports" | "whatsapp" | "emailReports" }) {
  const { t } = useTranslation(ns);
  return (
    <Section title={t("detail.timeline")}>
      {events.length === 0 ? (
        <p className="text-sm text-muted-foreground">{t("detail.noEvents")}</p>
      ) : (
        <ol className="space-y-3 border-l pl-4" aria-label={t("detail.timeline")}>
          {events.map((e, i) => (
            <li key={i} className="space-y-1" data-event-status={e.status}>
              <div className="flex flex-wrap items-center gap-2">
                <SmsStatusBadge status={e.status} />
                <time dateTime={String(e.occurred_at ?? e.created_at)} className="text-sm">
                  {formatDateTime(e.occurred_at ?? e.created_at, lng)}
                </time>
                <span className="text-xs text-muted-foreground">{t(`detail.source.${e.source === "provider" ? "provider" : "system"}`)}</span>
              </div>
              {e.error_code || e.error_message ? (
                <p className="text-sm text-destructive" data-event-error={e.error_code ?? ""}>
                  {t("detail.eventError", { code: e.error_code ?? "—", message: e.error_message ?? "" })}
                </p>
              ) : null}
            </li>
          ))}
        </ol>
      )}
    </Section>
  );
}

/** A section of the detail screen with other content (a map, …). */
export { Section as DetailSection };
