/**
 * One client connection (websocket or SSE), whatever the transport: who it is, which streams it
 * reads, its presence hold, and its commands. Frames (JSON):
 *
 *  server -> client
 *    {type:"welcome", connection_id, kind, supervisor, cursors:{<stream>: id}}   (then catch-up, then live)
 *    {type:"event", stream, id, event, room_id?, data, at?}                    stream: account | notifications | room | boards
 *    {type:"reply", id, ok, data | error:{code, message}}
 *    {type:"already_connected"}          an agent connection of this person is open elsewhere
 *    {type:"disconnect", reason}         taken over elsewhere; the socket closes (4409)
    (revoked: logout, password/2FA change, removal, role change, suspension: closes with 4401, no frame)
 *    {type:"ping", at}
 *  client -> server
 *    {type:"command", id, command, payload}    (api/live/commands.ts)
 *    {type:"takeover"}                          after already_connected: disconnect the other one
 *
 * A client resumes with `last=<stream>:<id>,<stream>:<id>` (or SSE's Last-Event-ID in the same
 * form) and receives every entry after those ids, then live entries.
 */
import { loadActor } from "../api/auth/actor";
import { dispatchLiveCommand, type LiveCaller } from "../api/live/commands";
import { claimPresence, liveEntryFor, refreshPresence, releasePresence, takeOverPresence } from "../api/live/presence";
import { distribute } from "../api/live/rooms/distribution";
import { accountLiveStream, roomLiveStream } from "../api/live/streams";
import type { VisitorIdentity } from "../api/live/visitor-tokens";
import { notificationStream } from "../api/notifications/services";
import { boardStream } from "../api/pipelines/events";
import { can } from "../api/policy/policy";
import type { Actor } from "../api/lib/context";
import { randomToken } from "../api/lib/crypto";
import { Feed, isStreamId, type Entry, type StreamHub } from "./hub";
import { holdRevocable } from "./revocation";

/**
 * An agent's `sessionId` is the web session of its ticket or the token family of its access
 * token (`tokenIssuedAt` set): what revocations match it by (realtime/revocation.ts).
 */
export type Identity =
  | { kind: "agent"; actor: Actor; live: boolean; supervisor: boolean; sessionId: string | null; tokenIssuedAt: number | null }
  | { kind: "visitor"; visitor: VisitorIdentity };

export interface Transport {
  /** A frame for one stream entry (the JSON is shared by every client of that stream). */
  event(feed: Feed, e: Entry, frame: string, eventName: string): void;
  control(frame: Record<string, unknown>): void;
  close(code: number, reason: string): void;
}

export const CLOSE = { UNAUTHORIZED: 4401, FORBIDDEN: 4403, CONNECTED_ELSEWHERE: 4409, TRY_AGAIN: 1013 } as const;

/** Parses `account:1-0,notifications:2-0` (a resume point per stream). */
export function parseCursors(raw: string | null | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const part of (raw ?? "").split(",")) {
    const i = part.indexOf(":");
    if (i <= 0) continue;
    const name = part.slice(0, i).trim();
    const id = part.slice(i + 1).trim();
    if (/^[a-z]{1,20}$/.test(name) && isStreamId(id)) out[name] = id;
  }
  return out;
}
export const formatCursors = (c: Record<string, string>) =>
  Object.entries(c)
    .map(([k, v]) => `${k}:${v}`)
    .join(",");

/** The event frame of an entry, built once per entry and stream and shared by every client. */
function eventFrame(name: string, e: Entry): string {
  if (e.frame) return e.frame;
  const { event, data, room_id, at, to: _to, ...rest } = e.fields;
  let payload: unknown = rest;
  if (data !== undefined) {
    try {
      payload = JSON.parse(data);
    } catch {
      payload = data;
    }
  }
  const frame: Record<string, unknown> = { type: "event", stream: name, id: e.id, event: event ?? "message" };
  if (room_id) frame.room_id = room_id;
  frame.data = payload;
  if (at) frame.at = Number(at);
  return (e.frame = JSON.stringify(frame));
}

/**
 * A command frame for who the connection is (the agent's actor reloaded, so a removed membership
 * or a changed role applies at once), through the dispatch table.
 */
export function runCommand(
  id: Identity,
  frame: Record<string, unknown>,
  meta: { connectionId: string | null; locale?: string | null; ip?: string | null; userAgent?: string | null },
) {
  const caller = async (): Promise<LiveCaller> => {
    const base = { ip: meta.ip ?? null, userAgent: meta.userAgent ?? null };
    const connectionId = meta.connectionId ?? "";
    if (id.kind === "agent") return { kind: "agent", ctx: { ...base, actor: await loadActor(id.actor.userId, id.actor.accountId, { strict: true }) }, connectionId };
    return { kind: "visitor", ctx: base, visitor: id.visitor, connectionId };
  };
  return dispatchLiveCommand({ kind: id.kind, locale: meta.locale, caller }, frame);
}

const PROCESS_TAG = randomToken(6);
const local = new Map<string, Connection>();

/** Connections of this process by id (the control channel's take-overs look them up). */
export function localConnection(id: string) {
  return local.get(id);
}
export function localConnections() {
  return local.values();
}

export class Connection {
  readonly id = `${PROCESS_TAG}.${randomToken(9)}`;
  private feeds: Feed[] = [];
  private state: "new" | "waiting" | "live" | "closed" = "new";
  private holdsPresence = false;
  private queue: Promise<unknown> = Promise.resolve();
  /** The last id delivered per stream (SSE ids carry them all). */
  readonly delivered: Record<string, string> = {};
  private release?: () => void;

  constructor(
    private readonly hub: StreamHub,
    readonly identity: Identity,
    private readonly transport: Transport,
    private readonly opts: { last: Record<string, string>; replacing?: string | null; takeover?: boolean; locale?: string | null; ip?: string | null; userAgent?: string | null },
  ) {
    local.set(this.id, this);
    Object.assign(this.delivered, opts.last);
    if (identity.kind === "agent") this.release = holdRevocable(identity, (reason) => this.revoke(reason));
  }

  /** Agents holding a live connection are limited to one per person and account. */
  private get limited() {
    return this.identity.kind === "agent" && this.identity.live;
  }

  async open() {
    if (this.limited) {
      const { actor } = this.identity as Extract<Identity, { kind: "agent" }>;
      if (this.opts.takeover) {
        await takeOverPresence(actor.accountId, actor.userId, this.id);
      } else {
        const claim = await claimPresence(actor.accountId, actor.userId, this.id, this.opts.replacing);
        if (!claim.ok) {
          this.state = "waiting";
          this.transport.control({ type: "already_connected", connection_id: this.id });
          return;
        }
      }
      this.online();
    }
    await this.start();
  }

  /** The hold is ours: the agent is online, so queued rooms may come to them now. */
  private online() {
    this.holdsPresence = true;
    const { actor } = this.identity as Extract<Identity, { kind: "agent" }>;
    void distribute(actor.accountId).catch((err) => console.error("live distribution failed", err));
  }

  private async start() {
    if (this.state === "closed") return;
    this.state = "live";
    const last = this.opts.last;
    const deliver = (feed: Feed, e: Entry) => {
      this.delivered[feed.name] = e.id;
      this.transport.event(feed, e, eventFrame(feed.name, e), e.fields.event ?? "message");
    };
    const id = this.identity;
    if (id.kind === "agent") {
      const { userId, accountId } = id.actor;
      this.feeds.push(
        new Feed(
          this.hub,
          notificationStream(accountId),
          "notifications",
          last.notifications ?? null,
          (e) => !e.fields.user || e.fields.user === "*" || e.fields.user === userId,
          deliver,
        ),
      );
      // Workflow boards' changes (api/pipelines/events.ts, ADR 056): for who may open /pipelines.
      if (can(id.actor, "/pipelines")) this.feeds.push(new Feed(this.hub, boardStream(accountId), "boards", last.boards ?? null, () => true, deliver));
      if (id.live) {
        const supervisor = id.supervisor;
        this.feeds.push(new Feed(this.hub, accountLiveStream(accountId), "account", last.account ?? null, (e) => liveEntryFor(e.fields.to, userId, supervisor), deliver));
      }
    } else {
      this.feeds.push(new Feed(this.hub, roomLiveStream(id.visitor.accountId, id.visitor.roomId), "room", last.room ?? null, () => true, deliver));
    }
    const cursors: Record<string, string> = {};
    for (const f of this.feeds) cursors[f.name] = await f.prepare();
    if (this.state !== "live") return this.stopFeeds();
    for (const [k, v] of Object.entries(cursors)) this.delivered[k] ??= v;
    this.transport.control({
      type: "welcome",
      connection_id: this.id,
      kind: id.kind,
      supervisor: id.kind === "agent" ? id.supervisor : false,
      live: id.kind === "agent" ? id.live : true,
      cursors,
    });
    await Promise.all(this.feeds.map((f) => f.run()));
  }

  /** A frame from the client. */
  onMessage(msg: unknown) {
    if (this.state === "closed") return;
    const m = (msg && typeof msg === "object" ? msg : {}) as Record<string, unknown>;
    if (m.type === "takeover") {
      if (this.state !== "waiting") return;
      const { actor } = this.identity as Extract<Identity, { kind: "agent" }>;
      this.state = "new";
      void takeOverPresence(actor.accountId, actor.userId, this.id)
        .then(() => {
          this.online();
          return this.start();
        })
        .catch((err) => this.fail(err));
      return;
    }
    if (m.type === "command") {
      // One command at a time per connection, in the order sent.
      this.queue = this.queue.then(() => this.command(m)).catch(() => undefined);
      return;
    }
    if (m.type === "ping") this.transport.control({ type: "pong", at: Date.now() });
  }

  private async command(m: Record<string, unknown>) {
    if (this.state === "waiting") {
      this.transport.control({ type: "reply", id: m.id ?? null, ok: false, error: { code: "ALREADY_CONNECTED", message: "already connected elsewhere" } });
      return;
    }
    if (m.command === "heart_beat") await this.heartbeat();
    const reply = await runCommand(this.identity, m, { ...this.opts, connectionId: this.id });
    if (this.state !== "closed") this.transport.control(reply);
  }

  /** Every 15 s and on each heart_beat: keep the presence hold, or learn it was taken over. */
  async heartbeat() {
    if (!this.holdsPresence || this.state !== "live") return;
    const { actor } = this.identity as Extract<Identity, { kind: "agent" }>;
    const still = await refreshPresence(actor.accountId, actor.userId, this.id).catch(() => true);
    if (!still) this.disconnect("connected_elsewhere");
  }

  /** Taken over by a connection elsewhere. */
  disconnect(reason: string) {
    if (this.state === "closed") return;
    this.holdsPresence = false;
    this.transport.control({ type: "disconnect", reason });
    this.transport.close(CLOSE.CONNECTED_ELSEWHERE, reason);
    this.closed();
  }

  /** No longer allowed (realtime/revocation.ts): close; a client that may still connect gets a new ticket. */
  revoke(reason: string) {
    if (this.state === "closed") return;
    this.transport.close(CLOSE.UNAUTHORIZED, reason);
    this.closed();
  }

  ping() {
    if (this.state === "live" || this.state === "waiting") this.transport.control({ type: "ping", at: Date.now() });
  }

  private fail(err: unknown) {
    console.error("realtime connection failed", err);
    this.transport.close(CLOSE.TRY_AGAIN, "try again");
    this.closed();
  }

  /** The transport is gone: stop reading, let go of the presence hold. */
  closed() {
    if (this.state === "closed") return;
    this.state = "closed";
    local.delete(this.id);
    this.release?.();
    this.stopFeeds();
    if (this.holdsPresence) {
      const { actor } = this.identity as Extract<Identity, { kind: "agent" }>;
      this.holdsPresence = false;
      void releasePresence(actor.accountId, actor.userId, this.id).catch(() => undefined);
    }
  }

  private stopFeeds() {
    for (const f of this.feeds) f.close();
    this.feeds = [];
  }

  /** For catching a start() failure from the transports. */
  async openSafely() {
    try {
      await this.open();
    } catch (err) {
      this.fail(err);
    }
  }
}
