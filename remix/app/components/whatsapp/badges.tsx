/** Badges of the WhatsApp screens: a template's status at Meta and a number's quality rating, translated and coloured by outcome. */
import { useTranslation } from "~/lib/react-i18n";
import { Badge, type BadgeProps } from "~/components/ui/badge";

const TEMPLATE_VARIANT: Record<string, BadgeProps["variant"]> = { approved: "success", pending: "outline", rejected: "destructive", paused: "warning", disabled: "destructive" };

export function TemplateStatusBadge({ status }: { status: string }) {
  const { t } = useTranslation("whatsapp");
  return (
    <Badge variant={TEMPLATE_VARIANT[status] ?? "outline"} data-template-status={status}>
      {t(`templateStatus.${status}`, { defaultValue: status })}
    </Badge>
  );
}

const QUALITY_VARIANT: Record<string, BadgeProps["variant"]> = { GREEN: "success", YELLOW: "warning", RED: "destructive" };

/** Meta's quality rating of a number: GREEN, YELLOW, RED or UNKNOWN. */
export function QualityBadge({ rating }: { rating: string }) {
  const { t } = useTranslation("whatsapp");
  return (
    <Badge variant={QUALITY_VARIANT[rating] ?? "outline"} data-quality={rating}>
      {t(`quality.${rating}`, { defaultValue: rating })}
    </Badge>
  );
}

const REQUEST_VARIANT: Record<string, BadgeProps["variant"]> = { requested: "outline", in_review: "warning", approved: "success", rejected: "destructive", canceled: "secondary" };

/** A number request's status: requested, in review, approved, rejected or canceled. */
export function RequestStatusBadge({ status }: { status: string }) {
  const { t } = useTranslation("whatsapp");
  return (
    <Badge variant={REQUEST_VARIANT[status] ?? "outline"} data-status={status}>
      {t(`request.status.${status}`, { defaultValue: status })}
    </Badge>
  );
}
