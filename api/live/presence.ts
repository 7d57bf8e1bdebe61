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
 */
import type { Actor } from "../lib/context";
import { attends, SUPERVISOR_ROLES } from "../policy/policy";
import { key, redis } from "../lib/redis";

export const PRESENCE_TTL_MS = 45_000;

const presenceKey = (accountId: string, userId: string) => key("live-presence", accountId, userId);
/** Pub/sub channel every realtime process listens to for connection control (take-overs). */
export const realtimeControlChannel = () => key("realtime", "control");

export type ControlMessage = { type: "disconnect"; connectionId: string; reason: "connected_elsewhere" };

/**
 * What a signed-in person's realtime connection may read: the live account stream needs the
 * omni plan and someone who attends (the policy's `attends`: spec "starts only when the account
 * has an omni plan and the role is admin or owner, or the user is an agent"); supervisors (owner,
 * admin, manager) receive every entry of it, others only entries addressed to all or to them.
 */
export function liveAccess(actor: Pick<Actor, "role" | "isAgent" | "services">): { live: boolean; supervisor: boolean } {
  const omni = actor.services.includes("omni");
  const supervisor = SUPERVISOR_ROLES.includes(actor.role);
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
  return {1, cur or ''}
end
return {0, cur}`;

// Extend our hold; take it again if it lapsed; report another holder.
const REFRESH = `
local cur = redis.call('GET', KEYS[1])
if (not cur) or cur == ARGV[1] then
  redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
  return 1
end
return 0`;

const RELEASE = `
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0`;

/**
 * Claims the person's live connection. `replacing` is the id of this client's previous
 * connection, if it had one: that one is taken over silently.
 */
export async function claimPresence(accountId: string, userId: string, connectionId: string, replacing?: string | null): Promise<{ ok: true } | { ok: false; holder: string }> {
  const [ok, cur] = (await redis().eval(CLAIM, 1, presenceKey(accountId, userId), connectionId, String(PRESENCE_TTL_MS), replacing ?? "")) as [number, string];
  if (ok === 1) {
    if (cur && cur !== connectionId) await announceDisconnect(cur);
    return { ok: true };
  }
  return { ok: false, holder: cur };
}

/** "Disconnect the other session and connect here": the new connection holds it from now on. */
export async function takeOverPresence(accountId: string, userId: string, connectionId: string): Promise<void> {
  const prev = (await redis().call("SET", presenceKey(accountId, userId), connectionId, "PX", String(PRESENCE_TTL_MS), "GET")) as string | null;
  if (prev && prev !== connectionId) await announceDisconnect(prev);
}

/** Heartbeat of the holding connection; false when another connection holds it now. */
export async function refreshPresence(accountId: string, userId: string, connectionId: string): Promise<boolean> {
  return (await redis().eval(REFRESH, 1, presenceKey(accountId, userId), connectionId, String(PRESENCE_TTL_MS))) === 1;
}

/** The connection closed: let go, unless someone else holds it already. */
export async function releasePresence(accountId: string, userId: string, connectionId: string): Promise<void> {
  await redis().eval(RELEASE, 1, presenceKey(accountId, userId), connectionId);
}

async function announceDisconnect(connectionId: string) {
  const msg: ControlMessage = { type: "disconnect", connectionId, reason: "connected_elsewhere" };
  await redis().publish(realtimeControlChannel(), JSON.stringify(msg));
}
