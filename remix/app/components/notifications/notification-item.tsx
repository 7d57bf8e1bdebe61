/** One notification: its translated text, when it came, unread highlight and "mark as read". */
import { Form, Link } from "@remix-run/react";
import { useTranslation } from "~/lib/react-i18n";
import { CsrfInput } from "~/components/forms/fields";
import { Button } from "~/components/ui/button";
import type { Lng } from "~/lib/i18n";
import { cn } from "~/lib/utils";
import { RelativeTime } from "./relative-time";

export type NotificationView = {
  id: number;
  kind: string;
  params: Record<string, unknown>;
  link: string | null;
  readAt: string | null;
  createdAt: string;
};

/** The text of a notification: common `notifications.types.<kind>` with its parameters. */
export function useNotificationText() {
  const { t } = useTranslation(["common", "settings"]);
  return (n: Pick<NotificationView, "kind" | "params">) => t(`notifications.types.${n.kind}`, { ...n.params, defaultValue: t("settings:notifications.generic") }) as string;
}

/** Only links inside the app are followed (notifications are data, not trusted HTML). */
function safeLink(link: string | null) {
  return link && link.startsWith("/") && !link.startsWith("//") ? link : null;
}

export function NotificationItem({ notification: n, lng, busy }: { notification: NotificationView; lng: Lng; busy?: boolean }) {
  const { t } = useTranslation(["common", "settings"]);
  const text = useNotificationText();
  const unread = !n.readAt;
  const link = safeLink(n.link);
  return (
    <li
      className={cn("flex flex-wrap items-start gap-3 px-4 py-3 sm:flex-nowrap", unread && "border-l-4 border-primary bg-primary/5")}
      data-notification-id={n.id}
      data-unread={unread || undefined}
    >
      <span className={cn("mt-1.5 inline-block size-2 shrink-0 rounded-full", unread ? "bg-primary" : "bg-transparent")} aria-hidden />
      <div className="min-w-0 flex-1 space-y-1">
        <p className={cn("text-sm", unread && "font-medium")}>
          {unread ? <span className="sr-only">{t("settings:notifications.unread")}: </span> : null}
          {link ? (
            <Link to={link} className="hover:underline">
              {text(n)}
            </Link>
          ) : (
            text(n)
          )}
        </p>
        <p className="text-xs text-muted-foreground">
          <RelativeTime value={n.createdAt} lng={lng} />
        </p>
      </div>
      {unread ? (
        <Form method="post" className="shrink-0">
          <CsrfInput />
          <input type="hidden" name="intent" value="read" />
          <input type="hidden" name="id" value={n.id} />
          <Button type="submit" variant="ghost" size="sm" disabled={busy}>
            {t("actions.markRead")}
          </Button>
        </Form>
      ) : null}
    </li>
  );
}
