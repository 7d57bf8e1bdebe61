/**
 * Provider connections and the SMS routes that point at them (ADR 011). A message's adapter is
 * the one of its route's connection (`sms_route_connections`), built from the connection's kind:
 * `simulator` (./simulator), `smpp` (./smpp/adapter), `http` (./http). One adapter module per
 * kind, all speaking the ChannelAdapter contract. Connections are read from the database at most
 * once a second per process; a change made through api/providers also invalidates every
 * listening process at once (Redis pub/sub, `connectionsChanged`), so the next message uses it.
 */
import { every } from "../jobs/every";
import { connect, redis } from "../lib/redis";
import { keys } from "../lib/redis-keys";
import type { ChannelAdapter } from "./contract";
import { httpAdapter } from "./http";
import { adapterFor } from "./registry";
import { simulatorAdapter } from "./simulator";
import { smppAdapter } from "./smpp/adapter";
import { rows } from "../lib/sql";

export const CONNECTION_KINDS = ["smpp", "http", "simulator"] as const;
export type ConnectionKind = (typeof CONNECTION_KINDS)[number];

export type ProviderConnection = {
  id: string;
  name: string;
  channel: string;
  kind: ConnectionKind;
  settings: Record<string, unknown>;
  enabled: boolean;
  updated_at: Date;
};

type Snapshot = { at: number; connections: ProviderConnection[]; routes: Map<string, string> };
const CACHE_MS = 1000;
let snapshot: Snapshot | undefined;
let loading: Promise<Snapshot> | undefined;
/** Bumped by every invalidation: a load that started before it is not kept as the snapshot. */
let generation = 0;

async function load(): Promise<Snapshot> {
  const at = Date.now();
  const [connections, routes] = await Promise.all([
    rows<ProviderConnection>(`SELECT id, name, channel, kind, settings, enabled, updated_at FROM provider_connections`),
    rows<{ route: string; connection_id: string }>(`SELECT route, connection_id FROM sms_route_connections`),
  ]);
  return { at, connections, routes: new Map(routes.map((r) => [r.route, r.connection_id])) };
}

export async function connectionsSnapshot(): Promise<Snapshot> {
  if (snapshot && Date.now() - snapshot.at < CACHE_MS) return snapshot;
  const gen = generation;
  if (!loading) {
    const p = load().finally(() => {
      if (loading === p) loading = undefined;
    });
    loading = p;
  }
  const s = await loading;
  if (gen === generation) snapshot = s;
  return s;
}

/** Forgets this process's snapshot: the next message reads connections and routes afresh. */
export function invalidateConnections() {
  generation++;
  snapshot = undefined;
  loading = undefined;
}

const changedChannel = () => keys.channel("provider-connections-changed");

/**
 * After a committed change of a connection or of the route map (api/providers): this process
 * forgets its snapshot at once and every process listening (`startConnectionLinks`: the
 * workers, where the dispatcher sends) is told over Redis pub/sub. A lost notice costs at most
 * the snapshot's 1 s lifetime.
 */
export async function connectionsChanged() {
  invalidateConnections();
  await redis()
    .publish(changedChannel(), String(Date.now()))
    .catch((e) => console.error("provider connections: change notice not published", e));
}

/** The connection a message of `channel` on `route` goes out through (SMS: its route's; else the channel's simulator). */
export async function connectionFor(channel: string, route: string | null): Promise<ProviderConnection | undefined> {
  const s = await connectionsSnapshot();
  const id = channel === "sms" ? s.routes.get(route ?? "T1") : undefined;
  const chosen = id ? s.connections.find((c) => c.id === id) : undefined;
  if (chosen) return chosen;
  return s.connections.find((c) => c.channel === channel && c.kind === "simulator" && c.enabled);
}

const adapters = new Map<string, { stamp: number; adapter: ChannelAdapter }>();

/** The adapter of a connection (rebuilt when the connection's row changed). */
export function adapterForConnection(c: ProviderConnection): ChannelAdapter {
  const stamp = new Date(c.updated_at).getTime();
  const cached = adapters.get(c.id);
  if (cached && cached.stamp === stamp) return cached.adapter;
  const adapter = c.kind === "smpp" ? smppAdapter(c) : c.kind === "http" ? httpAdapter(c) : simulatorAdapter(c.channel);
  cached?.adapter.close?.();
  adapters.set(c.id, { stamp, adapter });
  return adapter;
}

/**
 * The adapter of the provider a message went out through (`messages.provider`: a connection's
 * name, or a registry provider such as the built-in simulator), whatever its route points at now.
 */
export async function adapterForProvider(channel: string, provider: string): Promise<ChannelAdapter | undefined> {
  const s = await connectionsSnapshot();
  const c = s.connections.find((x) => x.name === provider && x.channel === channel);
  if (c) return c.enabled ? adapterForConnection(c) : undefined;
  return adapterFor(channel, provider);
}

/** The connection named `name` (a webhook's :provider), when it is an HTTP provider. */
export async function httpConnectionNamed(name: string): Promise<ProviderConnection | undefined> {
  const s = await connectionsSnapshot();
  return s.connections.find((c) => c.name === name && c.kind === "http");
}

/** Settings without secrets, for API answers. */
export function publicSettings(c: Pick<ProviderConnection, "settings">): Record<string, unknown> {
  const { password: _p, api_key: _k, webhook_secret: _w, ...rest } = c.settings;
  return rest;
}

/**
 * Keeps persistent links (SMPP binds) open for every enabled connection of this process, so
 * receipts and inbound messages arrive even before the first send; closes removed or disabled
 * ones. Runs in the worker (where the dispatcher sends).
 */
export function startConnectionLinks(everyMs = 2000) {
  let stopped = false;
  // Changes made through /admin/providers apply to the next message, not within the cache's second.
  const listener = connect();
  listener.on("error", (e) => console.error("provider connections listener:", e.message));
  listener.on("message", () => {
    invalidateConnections();
    if (!stopped) void tick().catch((e) => console.error("provider connections refresh failed", e));
  });
  void listener.subscribe(changedChannel()).catch((e) => console.error("provider connections: subscribe failed", e));
  const tick = async () => {
    const s = await connectionsSnapshot();
    for (const c of s.connections) if (c.enabled && c.kind === "smpp") adapterForConnection(c).start?.();
    for (const [id, { adapter }] of adapters) {
      const c = s.connections.find((x) => x.id === id);
      if (!c || !c.enabled) {
        adapter.close?.();
        adapters.delete(id);
      }
    }
  };
  const refresh = every("provider connections refresh", everyMs, () => (stopped ? undefined : tick()));
  void refresh.kick();
  return {
    stop() {
      stopped = true;
      void refresh.stop();
      listener.disconnect();
      for (const { adapter } of adapters.values()) adapter.close?.();
      adapters.clear();
    },
  };
}
