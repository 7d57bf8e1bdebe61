/**
 * The key scheme (ADR 028): every Redis key of the platform is built here and nowhere else.
 *
 * A key is `<REDIS_PREFIX>{<tag>}` or `<REDIS_PREFIX>{<tag>}:<rest>`. On a Redis Cluster only the
 * tag decides the slot, so keys that one command, MULTI, script or pipeline touches together
 * share a tag:
 *
 * | tag                  | keys                                                               | used together by |
 * |----------------------|--------------------------------------------------------------------|------------------|
 * | `user:<id>`          | sessions index, tokens-valid-after, token-family-revoked, totp-used | MGET on every API call (valid-after + family) |
 * | `session:<id>`       | a web session's data                                               | alone (the index is written first, then the data) |
 * | `rl:<rule>:<subject>`| a request limiter's counter                                        | MULTI INCR + EXPIRE |
 * | `bucket:<key>`       | a dispatch bucket's schedule and its provider pause                | one script (2 keys) |
 * | `live:<account>`     | agents' presence holds and the account's "seen" set                | one script (2 keys) |
 * | `rt:<n>`             | live (account and room), notification and board streams of the accounts of realtime shard n, and each realtime process's wake-up stream for that shard | one blocking XREAD per shard in a realtime process; one pipeline per event |
 * | `<stream>:<n>`       | shard n of a job stream and its dead-letter stream                 | MULTI XADD dead + XACK |
 * | `smpp:<user>`        | an SMPP user's per-second submit counters                          | alone |
 * | `concat:<owner>`     | the parts of a concatenated SMS held until the last (owner: an SMPP user or a provider connection) | alone (one script per part) |
 * | `smpp-link:<conn>`   | an SMPP provider connection's next submit slot (its tps, shared by every worker) | alone (one script) |
 * | `lease:<sweep>`      | the lease of a sweep that runs once across the workers              | alone (SET NX, compare-and-extend script) |
 * | `sim-mail`           | the simulator's SMTP peer's mailbox: received ids, newest first, the entries by id, and per recipient domain how many each address received | one script (2 keys); the counts alone |
 * | `sim-dns`            | the simulator's DNS peer's zone (records by name and type)          | alone |
 * | `sim-psp`            | the simulator's payment provider's charges                          | alone |
 * | `rcs-cap:<agent>:<msisdn>` | a number's RCS capability for an agent as RBM answered it (capable or not), for RCS_CAPABILITY_TTL_S | alone |
 * | others               | one key each (tickets, visitor tokens, typing marks, pub/sub channels) | alone |
 *
 * Job streams are split in STREAM_SHARDS shards (a message goes to the shard its id hashes to),
 * so a channel's consumers spread over the cluster's masters; the realtime streams are grouped
 * by REALTIME_SHARDS tags so a realtime process blocks on at most that many readers.
 */
import { env } from "./env";
import { slotOf } from "./redis";

/** The hash tag of a key built here (the text between its first braces). */
export function tagOf(key: string): string {
  const open = key.indexOf("{");
  const close = key.indexOf("}", open + 1);
  return open >= 0 && close > open ? key.slice(open + 1, close) : key;
}

/** A stable shard in [0, n) for an id (the same id always lands in the same shard). */
export const shardOf = (id: string, n: number) => (n <= 1 ? 0 : slotOf(`{${id}}`) % n);

const realtimeTag = (accountId: string) => `rt:${shardOf(accountId, env().REALTIME_SHARDS)}`;

/** The scheme under a given prefix (the processes' own is `keys`; tests read a private stack's keys with theirs). */
export function keysFor(prefix: string | (() => string)) {
  const k = (tag: string, ...rest: Array<string | number>): string => {
    const base = `${typeof prefix === "string" ? prefix : prefix()}{${tag}}`;
    return rest.length ? `${base}:${rest.join(":")}` : base;
  };
  return {
    // People and sessions
    session: (sessionId: string) => k(`session:${sessionId}`),
    userSessions: (userId: string) => k(`user:${userId}`, "sessions"),
    tokensValidAfter: (userId: string) => k(`user:${userId}`, "tokens-valid-after"),
    tokenFamilyRevoked: (userId: string, family: string) => k(`user:${userId}`, "token-family-revoked", family),
    totpUsed: (userId: string, step: number | string) => k(`user:${userId}`, "totp-used", step),
    realtimeTicket: (ticket: string) => k(`rt-ticket:${ticket}`),

    // Limits
    rateLimit: (rule: string, subject: string) => k(`rl:${rule}:${subject}`),
    dispatchBucket: (bucket: string) => k(`bucket:${bucket}`),
    dispatchBucketPause: (bucket: string) => k(`bucket:${bucket}`, "pause"),
    smppTps: (smppUserId: string, second: number) => k(`smpp:${smppUserId}`, "tps", second),
    smppLinkSlot: (connectionId: string) => k(`smpp-link:${connectionId}`, "slot"),
    smppConcat: (owner: string, message: string) => k(`concat:${owner}`, message),

    // Live chat
    livePresence: (accountId: string, userId: string) => k(`live:${accountId}`, "presence", userId),
    liveSeen: (accountId: string) => k(`live:${accountId}`, "seen"),
    liveTyping: (roomId: string, side: string) => k(`typing:${roomId}:${side}`),
    liveVisitor: (tokenHash: string) => k(`live-visitor:${tokenHash}`),
    liveVisitorRoom: (roomId: string) => k(`live-visitor-room:${roomId}`),

    // Realtime streams (grouped by account into REALTIME_SHARDS tags)
    accountLiveStream: (accountId: string) => k(realtimeTag(accountId), "live", "account", accountId),
    roomLiveStream: (accountId: string, roomId: string) => k(realtimeTag(accountId), "live", "room", roomId),
    notificationStream: (accountId: string) => k(realtimeTag(accountId), "notifications", accountId),
    /** Workflow boards' changes of the account (api/pipelines/events.ts, ADR 056). */
    boardStream: (accountId: string) => k(realtimeTag(accountId), "boards", accountId),
    /** A realtime process's wake-up stream in the slot of `tag` (the tag of streams it reads together). */
    hubWake: (tag: string, processId: string) => k(tag, "wake", processId),

    // Job streams: shard `n` of stream `name` (e.g. "messages:sms", "jobs:mail") and its dead letters
    jobStream: (name: string, shard: number) => k(`${name}:${shard}`),
    deadStream: (name: string, shard: number) => k(`${name}:${shard}`, "dead"),
    jobStreamFor: (name: string, id: string) => k(`${name}:${shardOf(id, streamShards())}`),
    allJobStreams: (name: string) => Array.from({ length: streamShards() }, (_, n) => k(`${name}:${n}`)),
    allDeadStreams: (name: string) => Array.from({ length: streamShards() }, (_, n) => k(`${name}:${n}`, "dead")),

    // A sweep's run-once lease (api/jobs/lease.ts)
    lease: (name: string) => k(`lease:${name}`),

    // RCS (api/channels/rcs/rbm.ts): what RBM answered about a number's capability, kept RCS_CAPABILITY_TTL_S
    rcsCapability: (agentId: string, msisdn: string) => k(`rcs-cap:${agentId}:${msisdn}`),

    // The simulator's local SMTP peer (api/simulator/smtp-peer.ts): what it received, capped
    simulatorMailIds: () => k("sim-mail", "ids"),
    simulatorMailEntries: () => k("sim-mail", "entries"),
    // How many messages each address of a recipient domain received (every one, not capped): a campaign's "exactly once" proof
    simulatorMailCounts: (domain: string) => k("sim-mail", "counts", domain),
    // The simulator's DNS peer (api/simulator/dns-peer.ts): its zone, `<name>|<TYPE>` -> JSON values
    simulatorDnsZone: () => k("sim-dns", "zone"),
    // The simulator's payment provider (api/simulator/psp.ts): its charges by id (JSON)
    simulatorPspCharges: () => k("sim-psp", "charges"),

    // Pub/sub channels (a cluster broadcasts them to every node; the tag is only for the scheme)
    channel: (name: "revocations" | "provider-connections-changed" | "realtime-control") => k(`channel:${name}`),
  };
}

/** Every key of this process (REDIS_PREFIX). */
export const keys = keysFor(() => env().REDIS_PREFIX);

/** How many shards each job stream has. */
export function streamShards() {
  return env().STREAM_SHARDS;
}

/** The shard of job stream `name` that the entry about `id` (a message id, a job id) goes to. */
export const jobStreamFor = (name: string, id: string) => keys.jobStreamFor(name, id);

/** Every shard of job stream `name`. */
export const allJobStreams = (name: string) => keys.allJobStreams(name);
