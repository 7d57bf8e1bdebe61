/**
 * An e-mail's status badge with its tooltip (spec section 4 and 8): the meaning of deferred,
 * bounced, dropped and blocked, and for a message that was not delivered its error code and
 * message. The tooltip is CSS only (shown on hover and on keyboard focus, no JavaScript needed)
 * and also the badge's title and accessible description.
 */
import { useId } from "react";
import { useTranslation } from "~/lib/react-i18n";
import { EMAIL_EXPLAINED_STATUSES, EMAIL_FAILED_STATUSES } from "~api/email/statuses";
import { SmsStatusBadge } from "~/components/sms-reports/status-badge";

export function EmailStatusBadge({ status, errorCode, errorMessage }: { status: string; errorCode?: string | null; errorMessage?: string | null }) {
  const { t } = useTranslation(["email", "emailReports", "smsReports"]);
  const id = useId();
  const lines: string[] = [];
  if ((EMAIL_EXPLAINED_STATUSES as readonly string[]).includes(status)) lines.push(t(`email:statusHelp.${status}`));
  if ((EMAIL_FAILED_STATUSES as readonly string[]).includes(status) && (errorCode || errorMessage)) {
    const message = errorMessage ? t(`smsReports:errorCodes.${errorMessage}`, { defaultValue: errorMessage }) : "";
    lines.push(t("emailReports:error", { code: errorCode || "—", message: message || "—" }));
  }
  if (lines.length === 0) return <SmsStatusBadge status={status} />;
  const text = lines.join(" · ");
  return (
    <span className="group relative inline-flex" title={text} data-tooltip={text}>
      {/* biome-ignore lint/a11y/noNoninteractiveTabindex: the tooltip opens on keyboard focus too */}
      <span tabIndex={0} aria-describedby={id} className="cursor-help rounded-md outline-none focus-visible:ring-2 focus-visible:ring-ring">
        <SmsStatusBadge status={status} />
      </span>
      <span
        id={id}
        role="tooltip"
        className="pointer-events-none invisible absolute top-full left-0 z-20 mt-1 w-64 rounded-md border bg-popover p-2 text-xs text-popover-foreground shadow-md group-hover:visible group-focus-within:visible"
      >
        {lines.map((l) => (
          <span key={l} className="block">
            {l}
          </span>
        ))}
      </span>
    </span>
  );
}
