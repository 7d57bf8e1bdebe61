/**
 * /support/messages-ticket (issue 23): the latest messages of the account's tickets, both sides,
 * newest first, each linking to its ticket — where a customer sees what support answered.
 */
import type { LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { listTicketMessages } from "~api/support/tickets";
import { PageHeader } from "~/components/shell/page-header";
import { TicketStatus, useLng } from "~/components/support/ticket-parts";
import { Button } from "~/components/ui/button";
import { Card, CardContent } from "~/components/ui/card";
import { orHttpError, requireRoute } from "~/lib/auth.server";
import { formatDate } from "~/lib/format";
import { useTranslation } from "~/lib/react-i18n";

export const handle = { crumb: "support:messages.title" };

export async function loader({ request }: LoaderFunctionArgs) {
  const ctx = await requireRoute(request);
  const cursor = new URL(request.url).searchParams.get("cursor") ?? undefined;
  const list = await orHttpError(listTicketMessages(ctx, { cursor, limit: "30" }));
  return json({ messages: list.data, next_cursor: list.next_cursor }, { headers: { "Cache-Control": "private, no-store" } });
}

export default function TicketMessages() {
  const { messages, next_cursor } = useLoaderData<typeof loader>();
  const { t } = useTranslation("support");
  const lng = useLng();
  return (
    <div className="space-y-6">
      <PageHeader
        description={t("messages.description")}
        actions={
          <Button asChild variant="outline" size="sm">
            <Link to="/support">{t("allTickets")}</Link>
          </Button>
        }
      />
      <Card>
        <CardContent className="pt-6">
          {messages.length === 0 ? (
            <p data-empty="messages" className="text-sm text-muted-foreground">
              {t("messages.empty")}
            </p>
          ) : (
            <ol className="divide-y" aria-label={t("messages.title")}>
              {messages.map((m) => (
                <li key={m.id} data-message-id={m.id} data-side={m.side} className="space-y-1 py-3 text-sm">
                  <div className="flex flex-wrap items-center gap-2">
                    <Link to={`/support/${m.ticket_id}`} className="font-medium underline">
                      {t("messages.on", { number: m.number, subject: m.subject })}
                    </Link>
                    <TicketStatus status={m.status} />
                  </div>
                  <p className="text-xs text-muted-foreground">
                    {m.author_name ?? t(`sides.${m.side}`)} · {t(`sides.${m.side}`)} · <time dateTime={m.created_at}>{formatDate(m.created_at, lng, true)}</time>
                  </p>
                  <p className="whitespace-pre-wrap break-words">{m.body}</p>
                </li>
              ))}
            </ol>
          )}
          {next_cursor ? (
            <Link to={`?${new URLSearchParams({ cursor: next_cursor })}`} className="mt-4 inline-block text-sm underline">
              {t("messages.more")}
            </Link>
          ) : null}
        </CardContent>
      </Card>
    </div>
  );
}
