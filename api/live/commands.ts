/**
 * The live commands that browsers send over the realtime connection (spec section 7, real
 * time): one dispatch table from the spec's command names to the use-cases that carry them
 * out. The realtime process only parses a frame, says who sends it and calls
 * `dispatchLiveCommand`; no business rule lives there (ARCHITECTURE.md "Real time").
 *
 * Handlers are registered, not imported here, so the room use-cases (api/live/rooms/) plug in
 * from api/live/command-handlers.ts without this file knowing them:
 *
 *   registerLiveCommand("close", (caller, payload) => closeRoom(agentCtx(caller), payload));
 *
 * A handler receives who calls (an agent with a fresh SignedInCtx, or a widget visitor bound to
 * one room) and the frame's `payload` (unvalidated: the use-case validates with its schema), and
 * returns the reply's data. AppErrors become `{ok: false, error: {code, message}}` replies,
 * translated for the connection's language, carrying the request's `id`.
 */
import { errorBody } from "../http/errors";
import type { Ctx, SignedInCtx } from "../lib/context";
import { AppError, isAppError } from "../lib/errors";
import type { VisitorIdentity } from "./visitor-tokens";

export const LIVE_COMMANDS = [
  "next",
  "send",
  "close",
  "return_to_queue",
  "transfer_agent",
  "transfer_department",
  "transfer_accept",
  "transfer_refused",
  "room_refused",
  "send-historic",
  "delivered",
  "read",
  "heart_beat",
  "status",
  // The widget visitor's own messages (PUT/DELETE /widget/{key}/messages/{id} over the socket).
  "edit",
  "delete",
  // "Typing…" to the other side (api/live/typing.ts): nothing stored.
  "typing",
] as const;
export type LiveCommandName = (typeof LIVE_COMMANDS)[number];

export type LiveCaller = { kind: "agent"; ctx: SignedInCtx; connectionId: string } | { kind: "visitor"; ctx: Ctx; visitor: VisitorIdentity; connectionId: string };

export type LiveCommandHandler = (caller: LiveCaller, payload: unknown) => unknown | Promise<unknown>;

/** Who may send a command: agents (the default), widget visitors, or both. */
export type LiveAudience = "agent" | "visitor" | "both";

type Registered = { handler: LiveCommandHandler; audience: LiveAudience };
const table = new Map<LiveCommandName, Registered>();

export function isLiveCommand(name: unknown): name is LiveCommandName {
  return typeof name === "string" && (LIVE_COMMANDS as readonly string[]).includes(name);
}

/** Plugs a use-case in for a command name (the last registration wins). */
export function registerLiveCommand(name: LiveCommandName, handler: LiveCommandHandler, opts: { audience?: LiveAudience } = {}) {
  if (!isLiveCommand(name)) throw new Error(`"${name}" is not a live command`);
  table.set(name, { handler, audience: opts.audience ?? "agent" });
}

export function unregisterLiveCommand(name: LiveCommandName) {
  table.delete(name);
}

export function registeredLiveCommands(): LiveCommandName[] {
  return [...table.keys()];
}

/** What a client sends: `{type: "command", id, command, payload}`. */
export type LiveCommandFrame = { id?: unknown; command?: unknown; payload?: unknown };

export type LiveReply =
  | { type: "reply"; id: string | number | null; ok: true; data: unknown }
  | { type: "reply"; id: string | number | null; ok: false; error: { code: string; message: string; fields?: Record<string, string[]>; params?: Record<string, string | number> } };

function replyId(id: unknown): string | number | null {
  if (typeof id === "number" && Number.isFinite(id)) return id;
  if (typeof id === "string" && id.length <= 100) return id;
  return null;
}

/**
 * Runs one command frame. `caller` is resolved only for a command that will run (an agent's
 * actor is reloaded per command, so a removed membership or changed role applies at once).
 */
export async function dispatchLiveCommand(
  conn: { kind: "agent" | "visitor"; locale?: string | null; caller: () => Promise<LiveCaller> },
  frame: LiveCommandFrame,
): Promise<LiveReply> {
  const id = replyId(frame.id);
  try {
    const name = frame.command;
    if (!isLiveCommand(name)) throw new AppError("UNKNOWN_COMMAND", { params: { command: String(name ?? "").slice(0, 40) } });
    const entry = table.get(name);
    if (!entry) throw new AppError("COMMAND_UNAVAILABLE", { params: { command: name } });
    if (entry.audience !== "both" && entry.audience !== conn.kind) throw new AppError("FORBIDDEN");
    const data = await entry.handler(await conn.caller(), frame.payload);
    return { type: "reply", id, ok: true, data: data ?? null };
  } catch (err) {
    const e = isAppError(err) ? err : new AppError("INTERNAL");
    if (!isAppError(err)) console.error("live command failed", err);
    const body = errorBody(e, conn.locale ?? null).error;
    return {
      type: "reply",
      id,
      ok: false,
      error: { code: body.code, message: body.message, ...(body.fields ? { fields: body.fields } : {}), ...(body.params ? { params: body.params } : {}) },
    };
  }
}

/** The agent's ctx of a caller, or FORBIDDEN for a visitor (for handlers that serve agents only). */
export function agentCtx(caller: LiveCaller): SignedInCtx {
  if (caller.kind !== "agent") throw new AppError("FORBIDDEN");
  return caller.ctx;
}

// heart_beat is answered by the connection itself (the realtime process also refreshes the
// agent's presence when it sees one): it needs no use-case.
registerLiveCommand("heart_beat", () => ({ at: Date.now() }), { audience: "both" });
