/** /notifications: the person's in-app notifications, newest first, live with JavaScript. */
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation, useRouteLoaderData } from "@remix-run/react";
import { useEffect, useState } from "react";
import { useTranslation } from "~/lib/react-i18n";
import { markReadFormSchema, notificationsQuerySchema } from "~api/notifications/schemas";
import { listNotifications, markRead } from "~api/notifications/services";
import { issueStreamTicket } from "~api/realtime/tickets";
import { CsrfInput, FormErrors } from "~/components/forms/fields";
import { NotificationItem } from "~/components/notifications/notification-item";
import { PageHeader } from "~/components/shell/page-header";
import { Badge } from "~/components/ui/badge";
import { Button, buttonVariants } from "~/components/ui/button";
import { Card, CardContent } from "~/components/ui/card";
import { requireRoute } from "~/lib/auth.server";
import { handleForm, type FormReply } from "~/lib/forms.server";
import type { Lng } from "~/lib/i18n";
import { redirectWithToast } from "~/lib/toast.server";
import { cn } from "~/lib/utils";
import type { RootData } from "~/root";

export const handle = { crumb: "notifications.title" };

export async function loader({ request }: LoaderFunctionArgs) {
  const ctx = await requireRoute(request);
  const { before, filter } = notificationsQuerySchema.parse(Object.fromEntries(new URL(request.url).searchParams));
  const [list, streamTicket] = await Promise.all([listNotifications(ctx, { before, unreadOnly: filter === "unread" }), issueStreamTicket(ctx.actor, ctx.sessionId)]);
  return json({ ...list, filter, before: before ?? null, streamTicket }, { headers: { "Cache-Control": "no-store" } });
}

export async function action({ request }: ActionFunctionArgs) {
  const ctx = await requireRoute(request);
  // Back to the same list (filter, page), without Remix's `index` marker.
  const params = new URL(request.url).searchParams;
  params.delete("index");
  const back = params.toString() ? `/notifications?${params}` : "/notifications";
  return handleForm(request, markReadFormSchema, async (value) => {
    await markRead(ctx, value.intent === "read-all" ? "all" : [value.id]);
    return redirectWithToast(request, back, { type: "success", title: "notifications.markedRead" });
  });
}

export default function Notifications() {
  const data = useLoaderData<typeof loader>();
  const root = useRouteLoaderData<RootData>("root");
  const lng = (root?.lng ?? "pt-BR") as Lng;
  const { t } = useTranslation(["common", "settings"]);
  const last = useActionData<FormReply>();
  const busy = useNavigation().state === "submitting";
  const [live, setLive] = useState(false);
  useEffect(() => setLive(true), []);
  const filterHref = (filter: "all" | "unread") => (filter === "all" ? "/notifications" : "/notifications?filter=unread");
  const moreParams = new URLSearchParams();
  if (data.filter === "unread") moreParams.set("filter", "unread");
  if (data.next) moreParams.set("before", String(data.next));
  const formErrors = last?.result?.error?.[""] ?? null;

  return (
    <div className="space-y-6" data-stream-ticket={data.streamTicket} data-testid="notifications">
      <PageHeader
        description={t("shell.unread", { count: data.unread })}
        actions={
          <>
            {live ? (
              <Badge variant="success" data-testid="live-badge">
                {t("notifications.live")}
              </Badge>
            ) : null}
            {data.unread > 0 ? (
              <Form method="post">
                <CsrfInput />
                <input type="hidden" name="intent" value="read-all" />
                <Button type="submit" variant="outline" size="sm" disabled={busy}>
                  {t("actions.markAllRead")}
                </Button>
              </Form>
            ) : null}
          </>
        }
      />
      <FormErrors errors={formErrors} />
      <nav aria-label={t("settings:notifications.filter")} className="flex gap-2">
        {(["all", "unread"] as const).map((f) => (
          <Link
            key={f}
            to={filterHref(f)}
            aria-current={data.filter === f ? "page" : undefined}
            className={cn(buttonVariants({ variant: data.filter === f ? "secondary" : "ghost", size: "sm" }))}
          >
            {f === "all" ? t("notifications.all") : t("notifications.unreadOnly")}
          </Link>
        ))}
      </nav>
      <Card className="py-0">
        <CardContent className="px-0">
          {data.data.length === 0 ? (
            <p className="p-8 text-center text-sm text-muted-foreground">{t("notifications.empty")}</p>
          ) : (
            <ul className="divide-y" data-testid="notification-list">
              {data.data.map((n) => (
                <NotificationItem key={n.id} notification={n} lng={lng} busy={busy} />
              ))}
            </ul>
          )}
        </CardContent>
      </Card>
      <div className="flex flex-wrap items-center justify-center gap-3">
        {data.before ? (
          <Link to={filterHref(data.filter)} className={buttonVariants({ variant: "ghost", size: "sm" })}>
            {t("settings:notifications.newest")}
          </Link>
        ) : null}
        {data.next ? (
          <Link to={`/notifications?${moreParams}`} className={buttonVariants({ variant: "outline", size: "sm" })} rel="next" data-testid="load-more">
            {t("notifications.more")}
          </Link>
        ) : null}
      </div>
    </div>
  );
}
