/** /live/history/{roomId}: one conversation's transcript (80 messages a page, older by link) and its transitions. */
import type { LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Link, useLoaderData, useRouteLoaderData } from "@remix-run/react";
import { useTranslation } from "~/lib/react-i18n";
import { transcript } from "~api/live/transcripts";
import { MessageBubble } from "~/components/live/thread";
import { PageHeader } from "~/components/shell/page-header";
import { Badge } from "~/components/ui/badge";
import { Card, CardContent, CardHeader } from "~/components/ui/card";
import { orHttpError, requireRoute } from "~/lib/auth.server";
import { formatDate } from "~/lib/format";
import type { MessageView } from "~/lib/live-state";
import type { RootData } from "~/root";

export const handle = {
  crumb: (data: unknown) => ({ key: "liveDesk:history.transcript", params: { protocol: (data as { room?: { protocol: string } })?.room?.protocol ?? "" } }),
};

export async function loader({ request, params }: LoaderFunctionArgs) {
  const ctx = await requireRoute(request);
  const before = new URL(request.url).searchParams.get("before");
  const t = await orHttpError(transcript(ctx, params.roomId ?? "", { before: before && /^[0-9a-f-]{36}$/i.test(before) ? before : null }));
  return json({ ...t, before });
}

export default function LiveTranscript() {
  const { room, messages, more, events, authors, before } = useLoaderData<typeof loader>();
  const { t } = useTranslation("liveDesk");
  const lng = useRouteLoaderData<RootData>("root")?.lng ?? "pt-BR";
  return (
    <div className="space-y-6">
      <PageHeader description={t("history.transcriptDescription")} />
      <div className="grid grid-cols-1 items-start gap-6 lg:grid-cols-[minmax(0,1fr)_20rem]">
        <Card>
          <CardContent className="space-y-1 pt-6" data-testid="transcript">
            {more && messages[0] ? (
              <p className="text-center">
                <Link className="text-sm underline" to={`?before=${messages[0].id}`}>
                  {t("thread.older")}
                </Link>
              </p>
            ) : null}
            {messages.length === 0 ? <p className="py-8 text-center text-sm text-muted-foreground">{t("thread.empty")}</p> : null}
            {messages.map((m) => (
              <MessageBubble key={m.id} m={m as MessageView} lng={lng} authorName={m.user_id ? authors[m.user_id] : undefined} />
            ))}
            {before ? (
              <p className="text-center">
                <Link className="text-sm underline" to=".">
                  {t("thread.newest")}
                </Link>
              </p>
            ) : null}
          </CardContent>
        </Card>
        <div className="space-y-6">
          <Card>
            <CardHeader>
              <h2 className="font-semibold">{t("details.title")}</h2>
            </CardHeader>
            <CardContent>
              <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 text-sm">
                <dt className="text-muted-foreground">{t("details.protocol")}</dt>
                <dd>{room.protocol}</dd>
                <dt className="text-muted-foreground">{t("details.status")}</dt>
                <dd>
                  <Badge variant="outline">{t(`roomStatus.${room.status}`)}</Badge>
                </dd>
                <dt className="text-muted-foreground">{t("details.channel")}</dt>
                <dd>{t(`channels.${room.channel}`, { defaultValue: room.channel })}</dd>
                <dt className="text-muted-foreground">{t("details.contact")}</dt>
                <dd>{room.username || t("list.anonymous")}</dd>
                {room.email ? (
                  <>
                    <dt className="text-muted-foreground">{t("details.email")}</dt>
                    <dd className="break-all">{room.email}</dd>
                  </>
                ) : null}
                {room.phone ? (
                  <>
                    <dt className="text-muted-foreground">{t("details.phone")}</dt>
                    <dd>{room.phone}</dd>
                  </>
                ) : null}
                <dt className="text-muted-foreground">{t("details.department")}</dt>
                <dd>{room.department_name ?? t("details.none")}</dd>
                <dt className="text-muted-foreground">{t("details.agent")}</dt>
                <dd>{room.agent_name ?? t("details.none")}</dd>
                <dt className="text-muted-foreground">{t("details.tabulation")}</dt>
                <dd>{room.tabulation_name ?? t("details.none")}</dd>
                <dt className="text-muted-foreground">{t("details.createdAt")}</dt>
                <dd>{formatDate(room.created_at, lng, true)}</dd>
                {room.closed_at ? (
                  <>
                    <dt className="text-muted-foreground">{t("details.closedAt")}</dt>
                    <dd>{formatDate(room.closed_at, lng, true)}</dd>
                  </>
                ) : null}
              </dl>
              {room.tags.length ? (
                <div className="mt-2 flex flex-wrap gap-1">
                  {room.tags.map((tag) => (
                    <Badge key={tag} variant="secondary">
                      {tag}
                    </Badge>
                  ))}
                </div>
              ) : null}
            </CardContent>
          </Card>
          <Card>
            <CardHeader>
              <h2 className="font-semibold">{t("history.events")}</h2>
            </CardHeader>
            <CardContent>
              <ol className="space-y-1 text-sm">
                {events.map((e) => (
                  <li key={e.id} className="flex justify-between gap-2">
                    <span>
                      {t(`events.${e.type}`, { defaultValue: e.type })}
                      {e.actor_name ? ` · ${e.actor_name}` : ""}
                    </span>
                    <time className="text-xs text-muted-foreground" dateTime={String(e.created_at)}>
                      {formatDate(String(e.created_at), lng, true)}
                    </time>
                  </li>
                ))}
              </ol>
            </CardContent>
          </Card>
        </div>
      </div>
    </div>
  );
}
