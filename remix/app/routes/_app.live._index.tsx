/**
 * /live: the agent workspace (spec sections 2 and 4). Left: the lists (queue, my conversations,
 * closed, offline, idle; 20 a page, with counts), my status and load. Center: the open room's
 * thread and the composer. Right: the room's details and actions. Rendered on the server from
 * ?tab=&room=&page=&before=; every action is a plain POST form handled below by the room
 * use-cases. With JavaScript the page is live (use-live-desk.ts).
 */
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Form, Link, useActionData, useFetcher, useLoaderData, useRouteLoaderData, useSubmit } from "@remix-run/react";
import { useEffect, useMemo, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { deskOptions, incomingTransfers, roomNames } from "../../../api/live/desk";
import {
  acceptTransfer, AGENT_STATUSES, closeRoom, getRoom, isSupervisor, listRooms, markDelivered, markRead, myLoad, queuePosition, refuseTransfer, resumeIdle,
  resumeOffline, returnToQueue, roomCounts, roomMessages, roomSummary, sendAgentMessage, setAgentStatus, setRoomTags, setTabulation, solveOffline, takeRoom,
  transferToAgent, transferToDepartment, type AgentStatus,
} from "../../../api/live/rooms";
import { isAppError } from "../../../api/lib/errors";
import { z } from "../../../api/lib/zod";
import { CsrfInput, FormErrors, useCsrf } from "~/components/forms/fields";
import { RoomPanel } from "~/components/live/room-panel";
import { Thread } from "~/components/live/thread";
import { statusKey, useLiveDesk } from "~/components/live/use-live-desk";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { NativeSelect, NativeSelectOption } from "~/components/ui/native-select";
import { Pager } from "~/components/ui/pager";
import { Textarea } from "~/components/ui/textarea";
import { orHttpError, requireRoute } from "~/lib/auth.server";
import { formatDate } from "~/lib/format";
import { handleForm, type FormReply } from "~/lib/forms.server";
import { DESK_LISTS, titleCount, type DeskList, type DeskSnapshot, type LiveConnection, type MessageView, type RoomView } from "~/lib/live-state";
import { redirectWithToast } from "~/lib/toast.server";
import { cn } from "~/lib/utils";
import type { RootData } from "~/root";

export const handle = {
  crumb: (data: unknown) => {
    const d = data as { counts?: { queue: number; unread: number } } | undefined;
    const n = d?.counts ? titleCount({ counts: { ...d.counts, me: 0, closed: 0, offline: 0, idle: 0 } }) : 0;
    return n > 0 ? { key: "liveDesk:desk.titleCount", params: { count: n } } : "liveDesk:desk.title";
  },
};

const parseTab = (v: string | null): DeskList => ((DESK_LISTS as readonly string[]).includes(v ?? "") ? (v as DeskList) : "me");
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function deskHref(p: { tab?: string; room?: string | null; page?: number; before?: string | null }) {
  const q = new URLSearchParams();
  if (p.tab) q.set("tab", p.tab);
  if (p.room) q.set("room", p.room);
  if (p.page && p.page > 1) q.set("page", String(p.page));
  if (p.before) q.set("before", p.before);
  const s = q.toString();
  return s ? `/live?${s}` : "/live";
}
const actionHref = (tab: string, room: string | null) => `/live?index&${new URLSearchParams({ tab, ...(room ? { room } : {}) })}`;

export async function loader({ request }: LoaderFunctionArgs) {
  const ctx = await requireRoute(request);
  const url = new URL(request.url);
  const tab = parseTab(url.searchParams.get("tab"));
  const page = Math.max(1, Number(url.searchParams.get("page") ?? 1) || 1);
  const roomParam = url.searchParams.get("room");
  const before = url.searchParams.get("before");
  const [list, counts, options, incoming, load] = await Promise.all([
    orHttpError(listRooms(ctx, tab, page)),
    orHttpError(roomCounts(ctx)),
    orHttpError(deskOptions(ctx)),
    orHttpError(incomingTransfers(ctx)),
    orHttpError(myLoad(ctx)),
  ]);
  let room: ReturnType<typeof roomSummary> | null = null;
  let roomError: string | null = null;
  let thread: { data: ReturnType<typeof roomMessages> extends Promise<infer P> ? P extends { data: infer D } ? D : never : never; more: boolean } = { data: [], more: false };
  let names = null;
  let position: number | null = null;
  if (roomParam && UUID.test(roomParam)) {
    try {
      const r = await getRoom(ctx, roomParam);
      room = roomSummary(r);
      const validBefore = before && UUID.test(before) ? before : null;
      [thread, names, position] = await Promise.all([
        roomMessages(ctx.actor.accountId, r.id, validBefore ? { before: validBefore } : { limit: 30 }),
        roomNames(ctx, r),
        queuePosition(ctx.actor.accountId, r.id),
      ]);
    } catch (e) {
      if (!isAppError(e)) throw e;
      roomError = `errors.${e.code}`;
    }
  } else if (roomParam) roomError = "errors.NOT_FOUND";
  // Authors' names for the thread (agents of this account).
  const authors = Object.fromEntries([...options.agents.map((a) => [a.id, a.name || a.email]), [ctx.actor.userId, ""]]);
  return json({
    me: ctx.actor.userId,
    supervisor: isSupervisor(ctx.actor),
    tab,
    list,
    counts,
    incoming,
    load,
    options,
    room,
    roomError,
    names,
    position,
    thread,
    before: before && UUID.test(before) ? before : null,
    authors,
  });
}

const roomId = z.object({ room_id: z.uuid("validation.required") });
const schemas = {
  take: roomId,
  send: roomId.extend({ body: z.string().trim().min(1, "validation.required").max(4096, "validation.maxLength::4096"), client_id: z.string().max(100).optional() }),
  close: roomId.extend({ tabulation_id: z.union([z.uuid(), z.literal("")]).optional() }),
  transfer_agent: roomId.extend({ agent_id: z.uuid("validation.required") }),
  transfer_department: roomId.extend({ department_id: z.uuid("validation.required") }),
  accept: roomId,
  refuse: roomId,
  return: roomId,
  resume_offline: roomId,
  solve: roomId,
  resume_idle: roomId,
  tags: roomId.extend({ tags: z.string().max(1000).optional() }),
  tabulation: roomId.extend({ tabulation_id: z.uuid("validation.required") }),
  delivered: roomId.extend({ ids: z.union([z.array(z.uuid()), z.uuid()]) }),
  read: roomId,
  status: z.object({ status: z.enum(AGENT_STATUSES) }),
} as const;
type Intent = keyof typeof schemas;

export async function action({ request }: ActionFunctionArgs) {
  const ctx = await requireRoute(request);
  const url = new URL(request.url);
  const form = await request.clone().formData();
  const intent = String(form.get("intent") ?? "") as Intent;
  const js = form.get("via") === "js";
  const tab = parseTab(url.searchParams.get("tab"));
  const here = url.searchParams.get("room");
  if (!(intent in schemas)) return json({ result: { status: "error", error: { "": ["validation.invalid"] } }, intent } as FormReply & { intent: string }, { status: 400 });

  const reply = await handleForm(request, schemas[intent] as unknown as z.ZodType<Record<string, any>>, async (value) => {
    const id = value.room_id as string;
    let to = deskHref({ tab, room: here });
    let data: unknown = null;
    switch (intent) {
      case "take": await takeRoom(ctx, id); to = deskHref({ tab: "me", room: id }); break;
      case "send": data = await sendAgentMessage(ctx, id, { body: value.body, clientId: value.client_id ?? null }); to = deskHref({ tab, room: id }); break;
      case "close": await closeRoom(ctx, id, { tabulationId: value.tabulation_id || null }); to = deskHref({ tab: "closed", room: id }); break;
      case "transfer_agent": await transferToAgent(ctx, id, value.agent_id); to = deskHref({ tab, room: id }); break;
      case "transfer_department": await transferToDepartment(ctx, id, value.department_id); to = deskHref({ tab: "me" }); break;
      case "accept": await acceptTransfer(ctx, id); to = deskHref({ tab: "me", room: id }); break;
      case "refuse": await refuseTransfer(ctx, id); to = deskHref({ tab: "me" }); break;
      case "return": await returnToQueue(ctx, id); to = deskHref({ tab: "me" }); break;
      case "resume_offline": await resumeOffline(ctx, id); to = deskHref({ tab: "me", room: id }); break;
      case "solve": await solveOffline(ctx, id); to = deskHref({ tab: "offline" }); break;
      case "resume_idle": await resumeIdle(ctx, id); to = deskHref({ tab: "me", room: id }); break;
      case "tags": await setRoomTags(ctx, id, String(value.tags ?? "").split(",")); break;
      case "tabulation": await setTabulation(ctx, id, value.tabulation_id); break;
      case "delivered": data = { changed: await markDelivered(ctx, id, ([] as string[]).concat(value.ids)) }; break;
      case "read": data = { changed: await markRead(ctx, id) }; break;
      case "status": data = await setAgentStatus(ctx, value.status as AgentStatus); break;
    }
    if (js) return json({ ok: true, data });
    return redirectWithToast(request, to, { type: "success", title: `liveDesk:toast.${intent}` });
  });
  if (reply instanceof Response && reply.status >= 400) {
    const body = (await reply.clone().json().catch(() => null)) as FormReply | null;
    if (body) return json({ ...body, intent }, { status: reply.status });
  }
  return reply;
}

function StatusForm({ status, action, onChange }: { status: string | null; action: string; onChange?: (s: string) => void }) {
  const { t } = useTranslation("liveDesk");
  const submit = useSubmit();
  const ref = useRef<HTMLFormElement>(null);
  return (
    <Form method="post" action={action} ref={ref} className="flex items-end gap-2">
      <CsrfInput />
      <input type="hidden" name="intent" value="status" />
      <div className="flex-1 space-y-1">
        <label htmlFor="agent-status" className="text-xs font-medium text-muted-foreground">{t("status.label")}</label>
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
          {AGENT_STATUSES.map((s) => <NativeSelectOption key={s} value={s}>{t(`agentStatus.${s}`)}</NativeSelectOption>)}
        </NativeSelect>
      </div>
      <noscript><Button type="submit" size="sm" variant="outline">{t("status.apply")}</Button></noscript>
    </Form>
  );
}

function Composer({ roomId, action, onSend, errors }: { roomId: string; action: string; onSend?: (body: string) => Promise<boolean>; errors?: string[] | null }) {
  const { t } = useTranslation("liveDesk");
  const [busy, setBusy] = useState(false);
  const ref = useRef<HTMLTextAreaElement>(null);
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
        setBusy(true);
        void onSend(body).then((ok) => {
          setBusy(false);
          if (ok && ref.current) ref.current.value = "";
          ref.current?.focus();
        });
      }}
    >
      <CsrfInput />
      <input type="hidden" name="intent" value="send" />
      <input type="hidden" name="room_id" value={roomId} />
      <FormErrors errors={errors} />
      <div className="flex items-end gap-2">
        <label htmlFor="composer" className="sr-only">{t("composer.label")}</label>
        <Textarea
          id="composer"
          ref={ref}
          name="body"
          rows={2}
          required
          maxLength={4096}
          placeholder={t("composer.placeholder")}
          className="min-h-12 flex-1 resize-none"
          onKeyDown={(e) => {
            // Enter sends, Shift+Enter is a new line.
            if (e.key === "Enter" && !e.shiftKey && !e.nativeEvent.isComposing) {
              e.preventDefault();
              e.currentTarget.form?.requestSubmit();
            }
          }}
        />
        <Button type="submit" disabled={busy}>{t("composer.send")}</Button>
      </div>
      <p className="text-xs text-muted-foreground">{t("composer.help")}</p>
    </Form>
  );
}

export default function LiveDesk({ connection = null }: { connection?: LiveConnection | null }) {
  const data = useLoaderData<typeof loader>();
  const actionData = useActionData<FormReply & { intent?: string }>();
  const { t } = useTranslation(["liveDesk", "common"]);
  const lng = useRouteLoaderData<RootData>("root")?.lng ?? "pt-BR";
  const csrf = useCsrf();
  const action = actionHref(data.tab, data.room?.id ?? null);

  const snapshot = useMemo<DeskSnapshot>(
    () => ({
      me: data.me, supervisor: data.supervisor, tab: data.tab, rooms: data.list.data as RoomView[], counts: data.counts, room: data.room as RoomView | null,
      messages: data.thread.data as MessageView[], more: data.thread.more, incoming: data.incoming as RoomView[], status: data.options.me.status,
    }),
    [data],
  );
  const { state, send, older, rememberStatus } = useLiveDesk({ snapshot, connection, csrf, actionUrl: action, sound: { muted: data.options.me.muted, volume: data.options.me.volume } });

  // The document title follows live counts (queued + unread).
  useEffect(() => {
    const n = titleCount(state);
    const base = document.title.replace(/^\(\d+\)\s*/, "");
    document.title = n > 0 ? `(${n}) ${base}` : base;
  }, [state.counts.queue, state.counts.unread]);

  const olderFetcher = useFetcher<typeof loader>();
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
  const errors = actionData?.result?.error ? Object.values(actionData.result.error).flat().filter((e): e is string => typeof e === "string") : null;
  const errorIntent = actionData?.intent ?? null;
  const canWrite = room && room.status === "OPEN" && room.agent_id === data.me && !room.locked;
  const firstId = data.thread.data[0]?.id ?? null;

  return (
    <div className="-m-4 grid h-[calc(100dvh-4rem)] md:-m-8 grid-cols-1 md:grid-cols-[18rem_1fr] xl:grid-cols-[18rem_1fr_20rem]" data-testid="live-desk">
      <h1 className="sr-only">{t("desk.title")}</h1>
      <nav className="flex min-h-0 flex-col border-r" aria-label={t("list.label")}>
        <div className="space-y-2 border-b p-3">
          <StatusForm status={state.status} action={action} onChange={rememberStatus} />
          <p className="text-xs text-muted-foreground" data-testid="agent-load">{t("status.load", { open: data.load.open, capacity: data.load.capacity })}</p>
        </div>
        {state.incoming.length ? (
          <div className="space-y-1 border-b bg-primary/5 p-3 text-sm" role="alert" data-testid="incoming-transfers">
            <p className="font-medium">{t("incoming.title")}</p>
            {state.incoming.map((r) => (
              <Link key={r.id} to={deskHref({ tab: data.tab, room: r.id })} className="block underline">{t("incoming.item", { protocol: r.protocol, name: r.username || t("list.anonymous") })}</Link>
            ))}
          </div>
        ) : null}
        <ul className="flex flex-wrap gap-1 border-b p-2" role="tablist">
          {DESK_LISTS.map((l) => (
            <li key={l} role="presentation">
              <Link
                role="tab"
                aria-selected={l === data.tab}
                to={deskHref({ tab: l })}
                className={cn("inline-flex items-center gap-1 rounded-md px-2 py-1 text-xs hover:bg-accent", l === data.tab && "bg-primary/10 font-medium text-primary")}
              >
                {t(`tabs.${l}`)}
                <Badge variant={l === data.tab ? "default" : "secondary"} data-testid={`count-${l}`}>{state.counts[l]}</Badge>
              </Link>
            </li>
          ))}
        </ul>
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

      <section className="flex min-h-0 flex-col" aria-label={t("thread.region")}>
        {room ? (
          <>
            <header className="flex items-center justify-between gap-2 border-b px-4 py-2">
              <div>
                <h2 className="font-semibold" data-testid="room-title">{room.username || t("list.anonymous")}</h2>
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
            {data.before ? <p className="px-4 py-1 text-center text-xs"><Link className="underline" to={deskHref({ tab: data.tab, room: room.id })}>{t("thread.newest")}</Link></p> : null}
            {canWrite ? (
              <Composer roomId={room.id} action={action} onSend={(body) => send(room.id, body)} errors={errorIntent === "send" ? errors : null} />
            ) : (
              <p className="border-t p-3 text-center text-sm text-muted-foreground">
                {room.status === "QUEUE" ? t("composer.takeFirst") : room.locked ? t("composer.locked") : room.status === "CLOSED" ? t("composer.closed") : t("composer.notYours")}
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
          options={{ tabulations: data.options.tabulations, departments: data.options.departments, agents: data.options.agents, tabulationRequired: data.options.settings.tabulation_required }}
          names={data.names}
          action={action}
          lng={lng}
          errors={errorIntent !== "send" ? errors : null}
          errorIntent={errorIntent}
        />
      ) : null}
    </div>
  );
}

export { statusKey };
