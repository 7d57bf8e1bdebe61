import { useTranslation } from "~/lib/react-i18n";
import { Badge, type BadgeProps } from "~/components/ui/badge";

const VARIANT: Record<string, BadgeProps["variant"]> = {
  delivered: "success",
  read: "success",
  received: "success",
  sent: "secondary",
  failed: "destructive",
  rejected: "destructive",
  unavailable: "warning",
  optout: "warning",
  opened: "success",
  clicked: "success",
  deferred: "warning",
  dropped: "warning",
  bounced: "destructive",
  blocked: "destructive",
};

/** A message status (spec section 4), translated; colour by outcome. */
export function SmsStatusBadge({ status }: { status: string }) {
  const { t } = useTranslation("smsReports");
  return (
    <Badge variant={VARIANT[status] ?? "outline"} data-status={status}>
      {t(`status.${status}`, { defaultValue: status })}
    </Badge>
  );
}

const EXPORT_VARIANT: Record<string, BadgeProps["variant"]> = { queued: "outline", processing: "warning", done: "success", failed: "destructive" };

export function ExportStatusBadge({ status }: { status: string }) {
  const { t } = useTranslation("smsReports");
  return (
    <Badge variant={EXPORT_VARIANT[status] ?? "outline"} data-status={status}>
      {t(`exports.status.${status}`)}
    </Badge>
  );
}
