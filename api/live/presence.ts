/**
 * Who may hold a live connection, and "already connected elsewhere" (spec section 4, live
 * connection): one agent connection per person per account across every realtime process.
 *
 * The holder is a Redis key `live-presence:{accountId}:{userId}` = the connection's id, with a
 * time to live that the holding connection refreshes on every heartbeat; a crashed process's
 * connections therefore let go within PRESENCE_TTL_MS. A take-over sets the key to the new
 * connection and announces the old one's id on the realtime control channel: whichever process
 * holds it sends `disconnect` and closes it (and a holder that finds the key no longer its own
 * on its next refresh closes itself, should that announcement be missed). Visitors are not limited.
 *
 * Whether an agent is online (issue 12 item 8): every write of the hold also writes, in the same
 * script, the agent's score in the account's sorted set `live-seen:{accountId}` = the time (ms)
 * the hold ends — now + PRESENCE_TTL_MS while held, the moment of release when the last
 * connection closes. Score in the future = online (a live connection exists in some realtime
 * process); in the past = offline since then, also when the holding process died (its hold's
 * expiry is its score). Automatic distribution gives rooms only to online agents; the worker
 * returns an absent agent's waiting rooms to the queue after the grace time (api/live/rooms.ts).
 */
import type { Actor } from "../lib/context";
import { attends, isSupervisor } from "../policy/policy";
import { redis } from "../lib/redis";
import { keys } from "../lib/redis-keys";

export const PRESENCE_TTL_MS = 45_000;

const presenceKey = (accountId: string, userId: string) => keys.livePresence(accountId, userId);
const seenKey = (accountId: string) => keys.liveSeen(accountId);
/** Pub/sub channel every realtime process listens to for connection control (take-overs). */
export const realtimeControlChannel = () => keys.channel("realtime-control");

export type ControlMessage = { type: "disconnect"; connectionId: string; reason: "connected_elsewhere" };

/**
 * What a signed-in person's realtime connection may read: the live account stream needs the
 * omni plan and someone who attends (the policy's `attends`: spec "starts only when the account
 * has an omni plan and the role is admin or owner, or the user is an agent"); supervisors (owner,
 * admin, manager) receive every entry of it, others only entries addressed to all or to them.
 */
export function liveAccess(actor: Pick<Actor, "role" | "isAgent" | "services">): { live: boolean; supervisor: boolean } {
  const omni = actor.services.includes("omni");
  const supervisor = isSupervisor(actor);
  const live = omni && attends(actor);
  return { live, supervisor: live && supervisor };
}

/** Is a live account-stream entry (`to` = "*" or a comma list of user ids) for this person? */
export function liveEntryFor(to: string | undefined, userId: string, supervisor: boolean): boolean {
  if (supervisor || !to || to === "*") return true;
  return to.split(",").includes(userId);
}

// Take the key when free, already ours, or held by the connection we replace (the same tab
// reconnecting after a drop the server has not noticed yet).
const CLAIM = `
local cur = redis.call('GET', KEYS[1])
if (not cur) or cur == ARGV[1] or (ARGV[3] ~= '' and cur == ARGV[3]) then
  redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
  redis.call('ZADD', KEYS[2], ARGV[4] + ARGV[2], ARGV[5])
  return {1, cur or ''}
end
return {0, cur}`;

// Extend our hold; take it again if it lapsed; report another holder.
const REFRESH = `
local cur = redis.call('GET', KEYS[1])
if (not cur) or cur == ARGV[1] then
  redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
  redis.call('ZADD', KEYS[2], ARGV[3] + ARGV[2], ARGV[4])
  return 1
end
return 0`;

// Take the hold whoever has it; answers the previous holder.
const TAKE_OVER = `
local prev = redis.call('GET', KEYS[1])
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
redis.call('ZADD', KEYS[2], ARGV[3] + ARGV[2], ARGV[4])
return prev or ''`;

// The last connection let go: offline from now (unless another connection holds it already).
const RELEASE = `
if redis.call('GET', KEYS[1]) == ARGV[1] then
  redis.call('ZADD', KEYS[2], ARGV[2], ARGV[3])
  return redis.call('DEL', KEYS[1])
end
return 0`;

/**
 * Claims the person's live connection. `replacing` is the id of this client's previous
 * connection, if it had one: that one is taken over silently.
 */
export async function claimPresence(accountId: string, userId: string, connectionId: string, replacing?: string | null): Promise<{ ok: true } | { ok: false; holder: string }> {
  const [ok, cur] = (await redis().eval(
    CLAIM,
    2,
    presenceKey(accountId, userId),
    seenKey(accountId),
    connectionId,
    String(PRESENCE_TTL_MS),
    replacing ?? "",
    Date.now(),
    userId,
  )) as [number, string];
  if (ok === 1) {
    if (cur && cur !== connectionId) await announceDisconnect(cur);
    return { ok: true };
  }
  return { ok: false, holder: cur };
}

/** "Disconnect the other session and connect here": the new connection holds it from now on. */
export async function takeOverPresence(accountId: string, userId: string, connectionId: string): Promise<void> {
  const prev = (await redis().eval(TAKE_OVER, 2, presenceKey(accountId, userId), seenKey(accountId), connectionId, String(PRESENCE_TTL_MS), Date.now(), userId)) as string;
  if (prev && prev !== connectionId) await announceDisconnect(prev);
}

/** Heartbeat of the holding connection; false when another connection holds it now. */
export async function refreshPresence(accountId: string, userId: string, connectionId: string): Promise<boolean> {
  return (await redis().eval(REFRESH, 2, presenceKey(accountId, userId), seenKey(accountId), connectionId, String(PRESENCE_TTL_MS), Date.now(), userId)) === 1;
}

/** The connection closed: let go, unless someone else holds it already. */
export async function releasePresence(accountId: string, userId: string, connectionId: string): Promise<void> {
  await redis().eval(RELEASE, 2, presenceKey(accountId, userId), seenKey(accountId), connectionId, Date.now(), userId);
}

/** The account's agents with a live connection now (any realtime process). */
export async function onlineAgents(accountId: string): Promise<string[]> {
  return redis().zrangebyscore(seenKey(accountId), `(${Date.now()}`, "+inf");
}

/**
 * Of these agents, those without a live connection for at least `graceMs`: offline since before
 * now - grace, or never seen online (a room given to them some other way).
 */
export async function absentAgents(accountId: string, userIds: string[], graceMs: number): Promise<string[]> {
  if (userIds.length === 0) return [];
  const scores = await redis().zmscore(seenKey(accountId), ...userIds);
  const before = Date.now() - graceMs;
  return userIds.filter((_, i) => scores[i] === null || Number(scores[i]) <= before);
}

async function announceDisconnect(connectionId: string) {
  const msg: ControlMessage = { type: "disconnect", connectionId, reason: "connected_elsewhere" };
  await redis().publish(realtimeControlChannel(), JSON.stringify(msg));
}
