import { useTranslation } from "~/lib/react-i18n";
import { Badge } from "~/components/ui/badge";

const VARIANT = { queued: "secondary", sent: "success", local: "outline", failed: "destructive" } as const;

/** Status of an outbound e-mail: queued, sent (SMTP), local (kept in the outbox), failed. */
export function MailStatusBadge({ status }: { status: string }) {
  const { t } = useTranslation("admin");
  return <Badge variant={VARIANT[status as keyof typeof VARIANT] ?? "secondary"}>{t(`mailbox.statuses.${status}`, { defaultValue: status })}</Badge>;
}
