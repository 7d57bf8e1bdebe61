/**
 * /live: the agent workspace (spec sections 2 and 4). Left: the lists (queue, my conversations,
 * closed, offline, idle; 20 a page, with counts), my status and load. Center: the open room's
 * thread and the composer. Right: the room's details and actions. Rendered on the server from
 * ?tab=&room=&page=&before=; every action is a plain POST form handled below by the room
 * use-cases. With JavaScript the page is live (use-live-desk.ts).
 */
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { fileAccept, SUGGESTION_MAX_LENGTH, SUGGESTIONS_MAX } from "~api/live/limits";
import { Form, Link, useActionData, useFetcher, useLoaderData, useRevalidator, useRouteLoaderData, useSearchParams, useSubmit } from "@remix-run/react";
import { useEffect, useMemo, useRef, useState } from "react";
import { ArrowLeft } from "lucide-react";
import { useTranslation } from "~/lib/react-i18n";
import { CsrfInput, FormErrors, useCsrf } from "~/components/forms/fields";
import { RoomPanel } from "~/components/live/room-panel";
import { SuggestionChips, Thread } from "~/components/live/thread";
import { type SendResult, useLiveDesk } from "~/components/live/use-live-desk";
import { SendErrors, type SendErrorList, TemplatePicker, WindowLine } from "~/components/live/whatsapp-composer";
import { useLive } from "~/components/live/live-provider";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { NativeSelect, NativeSelectOption } from "~/components/ui/native-select";
import { Pager } from "~/components/ui/pager";
import { Textarea } from "~/components/ui/textarea";
import { formatDate } from "~/lib/format";
import type { FormReply } from "~/lib/forms.server";
import { deskAction, deskLoader } from "~/lib/live-desk.server";
import { AGENT_STATUS_ORDER, deskHref, DESK_LISTS, titleCount, type DeskSnapshot, type MessageView, type RoomView } from "~/lib/live-state";
import { cn } from "~/lib/utils";
import type { RootData } from "~/root";

export const handle = {
  crumb: (data: unknown) => {
    const d = data as { counts?: { queue: number; unread: number } } | undefined;
    const n = d?.counts ? titleCount({ counts: { ...d.counts, me: 0, closed: 0, offline: 0, idle: 0 } }) : 0;
    return n > 0 ? { key: "liveDesk:desk.titleCount", params: { n } } : "liveDesk:desk.title";
  },
};

const actionHref = (tab: string, room: string | null) => `/live?index&${new URLSearchParams({ tab, ...(room ? { room } : {}) })}`;

export const loader = (args: LoaderFunctionArgs) => deskLoader(args);
export const action = (args: ActionFunctionArgs) => deskAction(args);

function StatusForm({ status, action, onChange }: { status: string | null; action: string; onChange?: (s: string) => void }) {
  const { t } = useTranslation("liveDesk");
  const submit = useSubmit();
  const ref = useRef<HTMLFormElement>(null);
  return (
    <Form method="post" action={action} ref={ref} className="flex items-end gap-2">
      <CsrfInput />
      <input type="hidden" name="intent" value="status" />
      <div className="flex-1 space-y-1">
        <label htmlFor="agent-status" className="text-xs font-medium text-muted-foreground">
          {t("status.label")}
        </label>
        <NativeSelect
          id="agent-status"
          name="status"
          defaultValue={status ?? "OFFLINE"}
          key={status ?? "OFFLINE"}
          onChange={(e) => {
            onChange?.(e.target.value);
            submit(e.currentTarget.form, { replace: true });
          }}
        >
          {AGENT_STATUS_ORDER.map((s) => (
            <NativeSelectOption key={s} value={s}>
              {t(`agentStatus.${s}`)}
            </NativeSelectOption>
          ))}
        </NativeSelect>
      </div>
      <noscript>
        <Button type="submit" size="sm" variant="outline">
          {t("status.apply")}
        </Button>
      </noscript>
    </Form>
  );
}

/** The composer's suggestion buttons field: one per line, blanks ignored. */
const suggestionLines = (raw: string) =>
  raw
    .split(/\r?\n/)
    .map((l) => l.replace(/\s+/g, " ").trim())
    .filter(Boolean);

function Composer({
  roomId,
  action,
  onSend,
  onTyping,
  errors,
}: {
  roomId: string;
  action: string;
  onSend?: (body: string, suggestions: string[]) => Promise<SendResult>;
  onTyping?: () => void;
  errors?: string[] | null;
}) {
  const { t } = useTranslation("liveDesk");
  const [busy, setBusy] = useState(false);
  const [local, setLocal] = useState<string | null>(null);
  const [failed, setFailed] = useState<SendErrorList | null>(null);
  const [chips, setChips] = useState<string[]>([]);
  const ref = useRef<HTMLTextAreaElement>(null);
  const suggestionsRef = useRef<HTMLTextAreaElement>(null);
  return (
    <Form
      method="post"
      action={action}
      className="space-y-2 border-t p-3"
      onSubmit={(e) => {
        if (!onSend) return;
        e.preventDefault();
        const body = ref.current?.value.trim() ?? "";
        if (!body || busy) return;
        const suggestions = suggestionLines(suggestionsRef.current?.value ?? "");
        // The server checks the same rules (spec section 9); here the agent learns it before the message leaves.
        if (suggestions.length > SUGGESTIONS_MAX) return setLocal(`validation.maxItems::${SUGGESTIONS_MAX}`);
        if (suggestions.some((s) => [...s].length > SUGGESTION_MAX_LENGTH)) return setLocal(`validation.eachMaxLength::${SUGGESTION_MAX_LENGTH}`);
        setLocal(null);
        setFailed(null);
        setBusy(true);
        void onSend(body, suggestions).then((r) => {
          const ok = r.ok;
          setBusy(false);
          if (!r.ok) setFailed(r.errors);
          if (ok && ref.current) ref.current.value = "";
          if (ok && suggestionsRef.current) {
            suggestionsRef.current.value = "";
            setChips([]);
          }
          ref.current?.focus();
        });
      }}
    >
      <CsrfInput />
      <input type="hidden" name="intent" value="send" />
      <input type="hidden" name="room_id" value={roomId} />
      <SendErrors errors={local ? { keys: [local] } : (failed ?? (errors?.length ? { keys: errors } : null))} />
      <div className="flex items-end gap-2">
        <label htmlFor="composer" className="sr-only">
          {t("composer.label")}
        </label>
        <Textarea
          id="composer"
          ref={ref}
          name="body"
          rows={2}
          required
          maxLength={4096}
          placeholder={t("composer.placeholder")}
          className="min-h-12 flex-1 resize-none"
          onInput={(e) => e.currentTarget.value.trim() && onTyping?.()}
          onKeyDown={(e) => {
            // Enter sends, Shift+Enter is a new line.
            if (e.key === "Enter" && !e.shiftKey && !e.nativeEvent.isComposing) {
              e.preventDefault();
              e.currentTarget.form?.requestSubmit();
            }
          }}
        />
        <Button type="submit" disabled={busy}>
          {t("composer.send")}
        </Button>
      </div>
      <details className="text-sm" data-testid="composer-suggestions">
        <summary className="cursor-pointer text-xs text-muted-foreground">
          {t("composer.suggestions.summary")}
          {chips.length ? ` (${chips.length})` : ""}
        </summary>
        <div className="mt-2 space-y-1">
          <label htmlFor="composer-suggestions" className="text-xs font-medium">
            {t("composer.suggestions.label")}
          </label>
          <Textarea
            id="composer-suggestions"
            ref={suggestionsRef}
            name="suggestions"
            rows={3}
            maxLength={2000}
            aria-describedby="composer-suggestions-help"
            placeholder={t("composer.suggestions.placeholder")}
            className="min-h-16 resize-y"
            onChange={(e) => setChips(suggestionLines(e.currentTarget.value))}
          />
          <p id="composer-suggestions-help" className="text-xs text-muted-foreground">
            {t("composer.suggestions.help", { max: SUGGESTIONS_MAX, length: SUGGESTION_MAX_LENGTH })}
          </p>
          {chips.length ? <SuggestionChips items={chips} /> : null}
        </div>
      </details>
      <p className="text-xs text-muted-foreground">{t("composer.help")}</p>
    </Form>
  );
}

/** Sends a file (with an optional caption) to the visitor: a plain multipart form, with or without JavaScript. */
function AttachForm({ roomId, channel, action, errors }: { roomId: string; channel: string; action: string; errors?: string[] | null }) {
  const { t } = useTranslation("liveDesk");
  return (
    <Form method="post" action={action} encType="multipart/form-data" className="flex flex-wrap items-center gap-2 border-t px-3 py-2" data-testid="attach-form">
      <CsrfInput />
      <input type="hidden" name="intent" value="upload" />
      <input type="hidden" name="room_id" value={roomId} />
      <label htmlFor="attach-file" className="text-xs text-muted-foreground">
        {t("attach.label")}
      </label>
      <input id="attach-file" name="file" type="file" required accept={fileAccept(channel)} className="max-w-56 text-xs" />
      <input name="body" aria-label={t("attach.caption")} placeholder={t("attach.caption")} maxLength={4096} className="h-8 min-w-0 flex-1 rounded-md border px-2 text-sm" />
      <Button type="submit" size="sm" variant="outline">
        {t("attach.send")}
      </Button>
      <FormErrors errors={errors} />
    </Form>
  );
}

export default function LiveDesk() {
  const data = useLoaderData<typeof deskLoader>();
  const [searchParams] = useSearchParams();
  const actionData = useActionData<FormReply & { intent?: string }>();
  const { t } = useTranslation(["liveDesk", "common"]);
  const lng = useRouteLoaderData<RootData>("root")?.lng ?? "pt-BR";
  const csrf = useCsrf();
  const action = actionHref(data.tab, data.room?.id ?? null);
  // The app-wide live connection (components/live/live-provider.tsx); null until it is open.
  const { connection, recent } = useLive();

  const snapshot = useMemo<DeskSnapshot>(
    () => ({
      me: data.me,
      supervisor: data.supervisor,
      tab: data.tab,
      rooms: data.list.data as RoomView[],
      counts: data.counts,
      room: data.room as RoomView | null,
      messages: data.thread.data as MessageView[],
      more: data.thread.more,
      incoming: data.incoming as RoomView[],
      status: data.options.me.status,
      mark: data.mark,
    }),
    [data],
  );
  const { state, send, sendTemplate, older, rememberStatus, typingRoom, signalTyping } = useLiveDesk({
    snapshot,
    connection,
    recent,
    csrf,
    actionUrl: action,
    sound: { muted: data.options.me.muted, muteUntil: data.options.me.mute_until, volume: data.options.me.volume },
  });

  // The document title follows live counts (queued + unread).
  const count = titleCount(state);
  useEffect(() => {
    const base = document.title.replace(/^\(\d+\)\s*/, "");
    document.title = count > 0 ? `(${count}) ${base}` : base;
  }, [count]);

  const olderFetcher = useFetcher<typeof deskLoader>();
  useEffect(() => {
    const d = olderFetcher.data;
    if (d?.room && d.before) older(d.room.id, { data: d.thread.data as MessageView[], more: d.thread.more });
  }, [olderFetcher.data, older]);
  const loadOlder = () => {
    const first = state.messages.find((m) => !m.id.startsWith("pending:"));
    if (!state.room || !first || olderFetcher.state !== "idle") return;
    olderFetcher.load(deskHref({ tab: data.tab, room: state.room.id, before: first.id }));
  };

  const room = state.room;
  const errors = actionData?.result?.error
    ? Object.values(actionData.result.error)
        .flat()
        .filter((e): e is string => typeof e === "string")
    : null;
  const errorIntent = actionData?.intent ?? null;
  const canWrite = room && room.status === "OPEN" && room.agent_id === data.me && !room.locked;
  // A WhatsApp room's window and templates (read with the page, so again when the room is opened).
  const whatsapp = room?.channel === "whatsapp" && data.room?.id === room.id;
  const composer = whatsapp ? data.composer : null;
  const windowClosed = composer ? !composer.window.open : false;
  const revalidator = useRevalidator();
  const refresh = useRef(revalidator.revalidate);
  refresh.current = revalidator.revalidate;
  // The window moves on each of the contact's messages: read it again when one arrives in this room
  // (without a connection the page is refetched every 2 s anyway) …
  const roomId = room?.id ?? null;
  useEffect(() => {
    if (!connection || !whatsapp || !roomId) return;
    return connection.onEvent((event) => {
      if (event.event === "send" && event.room_id === roomId && event.data?.message?.author === "visitor") refresh.current();
    });
  }, [connection, whatsapp, roomId]);
  // … and when it closes while the room is on screen.
  const expiresAt = composer?.window.open ? composer.window.expires_at : null;
  useEffect(() => {
    if (!expiresAt) return;
    const ms = new Date(expiresAt).getTime() - Date.now();
    if (ms > 2 ** 31 - 1) return;
    const timer = setTimeout(() => refresh.current(), Math.max(0, ms) + 1000);
    return () => clearTimeout(timer);
  }, [expiresAt]);
  const firstId = data.thread.data[0]?.id ?? null;

  return (
    // On a phone one thing at a time, chosen by the URL (works without JavaScript): the list, or the open room (?room=) with a link back to the list, its details below it.
    <div className="-m-4 grid grid-cols-1 md:-m-8 md:h-[calc(100dvh-4rem)] md:grid-cols-[18rem_1fr] xl:grid-cols-[18rem_1fr_20rem]" data-testid="live-desk">
      <h1 className="sr-only">{t("desk.title")}</h1>
      <nav className={cn("min-h-0 flex-col border-r", room ? "hidden md:flex" : "flex")} aria-label={t("list.label")}>
        <div className="space-y-2 border-b p-3">
          <StatusForm status={state.status} action={action} onChange={rememberStatus} />
          <p className="text-xs text-muted-foreground" data-testid="agent-load">
            {t("status.load", { open: data.load.open, capacity: data.load.capacity })}
          </p>
        </div>
        {state.incoming.length ? (
          <div className="space-y-1 border-b bg-primary/5 p-3 text-sm" role="alert" data-testid="incoming-transfers">
            <p className="font-medium">{t("incoming.title")}</p>
            {state.incoming.map((r) => (
              <Link key={r.id} to={deskHref({ tab: data.tab, room: r.id })} className="block underline">
                {t("incoming.item", { protocol: r.protocol, name: r.username || t("list.anonymous") })}
              </Link>
            ))}
          </div>
        ) : null}
        <div className="flex flex-wrap gap-1 border-b p-2" role="tablist">
          {DESK_LISTS.map((l) => (
            <div key={l} role="presentation">
              <Link
                role="tab"
                aria-selected={l === data.tab}
                to={deskHref({ tab: l })}
                className={cn("inline-flex items-center gap-1 rounded-md px-2 py-1 text-xs hover:bg-accent", l === data.tab && "bg-primary/10 font-medium text-primary")}
              >
                {t(`tabs.${l}`)}
                <Badge variant={l === data.tab ? "default" : "secondary"} data-testid={`count-${l}`}>
                  {state.counts[l]}
                </Badge>
              </Link>
            </div>
          ))}
        </div>
        <ul className="min-h-0 flex-1 overflow-y-auto" data-testid="room-list">
          {state.rooms.length === 0 ? <li className="p-4 text-center text-sm text-muted-foreground">{t(`list.empty.${data.tab}`)}</li> : null}
          {state.rooms.map((r) => (
            <li key={r.id}>
              <Link
                to={deskHref({ tab: data.tab, room: r.id, page: data.list.page })}
                data-room={r.id}
                className={cn("block border-b px-3 py-2 text-sm hover:bg-accent", r.id === room?.id && "bg-accent")}
                aria-current={r.id === room?.id ? "true" : undefined}
              >
                <span className="flex items-center justify-between gap-2">
                  <span className="truncate font-medium">{r.username || t("list.anonymous")}</span>
                  {r.unread_count > 0 ? <Badge aria-label={t("list.unread", { count: r.unread_count })}>{r.unread_count}</Badge> : null}
                </span>
                <span className="block truncate text-xs text-muted-foreground">{r.last_message ?? ""}</span>
                <span className="flex justify-between text-[0.7rem] text-muted-foreground">
                  <span>#{r.protocol}</span>
                  <span>{formatDate(r.last_message_at ?? r.created_at, lng, true)}</span>
                </span>
              </Link>
            </li>
          ))}
        </ul>
        <div className="border-t p-2">
          <Pager
            page={data.list.page}
            pageCount={data.list.last_page}
            hrefFor={(p) => deskHref({ tab: data.tab, page: p })}
            aria-label={t("common:pager.label")}
            labels={{ previous: t("common:pager.previous"), next: t("common:pager.next"), page: (n) => t("common:pager.page", { n }), more: t("common:pager.more") }}
          />
        </div>
      </nav>

      <section className={cn("min-h-0 flex-col", room ? "flex h-[calc(100dvh-4rem)] md:h-auto" : "hidden md:flex")} aria-label={t("thread.region")}>
        {room ? (
          <>
            <header className="flex items-center justify-between gap-2 border-b px-4 py-2">
              <div className="min-w-0">
                <Link to={deskHref({ tab: data.tab, page: data.list.page })} className="mb-1 inline-flex items-center gap-1 text-xs underline md:hidden" data-testid="back-to-list">
                  <ArrowLeft className="size-3" aria-hidden="true" /> {t("thread.backToList")}
                </Link>
                <h2 className="truncate font-semibold" data-testid="room-title">
                  {room.username || t("list.anonymous")}
                </h2>
                <p className="text-xs text-muted-foreground">
                  #{room.protocol} · {t(`roomStatus.${room.status}`)}
                  {data.position ? ` · ${t("details.position", { position: data.position })}` : ""}
                </p>
              </div>
            </header>
            <Thread
              messages={state.messages}
              more={state.more}
              lng={lng}
              olderHref={firstId ? deskHref({ tab: data.tab, room: room.id, before: firstId }) : null}
              onLoadOlder={loadOlder}
              loadingOlder={olderFetcher.state !== "idle"}
              names={data.authors}
            />
            <p className="h-5 px-4 text-xs italic text-muted-foreground" aria-live="polite" data-testid="typing">
              {typingRoom === room.id ? t("thread.typing", { name: room.username || t("list.anonymous") }) : ""}
            </p>
            {data.before ? (
              <p className="px-4 py-1 text-center text-xs">
                <Link className="underline" to={deskHref({ tab: data.tab, room: room.id })}>
                  {t("thread.newest")}
                </Link>
              </p>
            ) : null}
            {canWrite && whatsapp ? <WindowLine window={composer?.window ?? null} lng={lng} /> : null}
            {canWrite && windowClosed ? (
              <TemplatePicker
                key={room.id}
                roomId={room.id}
                action={action}
                tab={data.tab}
                initial={searchParams.get("template")}
                templates={composer?.templates ?? []}
                onSend={(template, preview) => sendTemplate(room.id, template, preview)}
                errors={errorIntent === "template" ? errors : null}
              />
            ) : canWrite ? (
              <>
                <Composer
                  roomId={room.id}
                  action={action}
                  onSend={(body, suggestions) => send(room.id, body, suggestions)}
                  onTyping={() => signalTyping(room.id)}
                  errors={errorIntent === "send" ? errors : null}
                />
                <AttachForm roomId={room.id} channel={room.channel} action={action} errors={errorIntent === "upload" ? errors : null} />
              </>
            ) : (
              <p className="border-t p-3 text-center text-sm text-muted-foreground">
                {room.status === "QUEUE"
                  ? t("composer.takeFirst")
                  : room.status === "BOT"
                    ? t("composer.bot")
                    : room.locked
                      ? t("composer.locked")
                      : room.status === "CLOSED"
                        ? t("composer.closed")
                        : t("composer.notYours")}
              </p>
            )}
          </>
        ) : (
          <div className="flex flex-1 items-center justify-center p-8 text-center text-sm text-muted-foreground">
            {data.roomError ? <FormErrors errors={[data.roomError]} /> : t("thread.none")}
          </div>
        )}
      </section>

      {room ? (
        <RoomPanel
          room={room}
          me={data.me}
          supervisor={data.supervisor}
          options={{
            tabulations: data.options.tabulations,
            departments: data.options.departments,
            agents: data.options.agents,
            tabulationRequired: data.options.settings.tabulation_required,
            macros: data.options.macros,
            samples: data.options.samples,
          }}
          names={data.names}
          action={action}
          lng={lng}
          errors={errorIntent !== "send" && errorIntent !== "template" ? errors : null}
          errorIntent={errorIntent}
          deals={data.deals}
        />
      ) : null}
    </div>
  );
}
