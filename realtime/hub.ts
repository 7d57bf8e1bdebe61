/**
 * The readers of one realtime process for every Redis Stream its clients follow: a blocking
 * XREAD over all of them (never one Redis connection per client), whose entries are handed to
 * each local subscriber. On one Redis server that is one read over every stream; on a Redis
 * Cluster a command must stay in one slot, so there is one reader per slot in use: the live and
 * notification streams carry one of REALTIME_SHARDS hash tags (api/lib/redis-keys.ts), so a
 * process has at most that many readers whatever the number of accounts. When the set of streams
 * of a reader changes, the blocked read is woken by an entry on the reader's own wake-up stream
 * (in the same slot, read in the same XREAD), so a new stream is read at once.
 *
 * A client's `Feed` joins the hub first, then reads what it missed with XRANGE (from the last id
 * it saw), then delivers the live entries it buffered meanwhile, skipping any id it already
 * sent: nothing is lost between the catch-up and the live tail, and nothing is sent twice.
 */
import { randomBytes } from "node:crypto";
import { connect, isCluster, redis, slotOf } from "../api/lib/redis";
import { keys, tagOf } from "../api/lib/redis-keys";
export type Entry = { id: string; fields: Record<string, string> /** per-stream frame cache */; frame?: string };
export interface Subscriber {
  push(entry: Entry): void;
}

const STREAM_ID = /^\d{1,20}-\d{1,20}$/;
export const isStreamId = (v: unknown): v is string => typeof v === "string" && STREAM_ID.test(v);

/** Orders two stream ids ("ms-seq"). */
export function cmpId(a: string, b: string): number {
  const i = a.indexOf("-");
  const j = b.indexOf("-");
  const ma = Number(a.slice(0, i));
  const mb = Number(b.slice(0, j));
  if (ma !== mb) return ma < mb ? -1 : 1;
  const sa = Number(a.slice(i + 1));
  const sb = Number(b.slice(j + 1));
  return sa === sb ? 0 : sa < sb ? -1 : 1;
}

export function toFields(list: string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (let i = 0; i < list.length; i += 2) out[list[i]] = list[i + 1];
  return out;
}

/** The newest id of a stream, or 0-0 when it is empty or missing. */
export async function topId(stream: string): Promise<string> {
  const res = (await redis().xrevrange(stream, "+", "-", "COUNT", 1)) as Array<[string, string[]]>;
  return res[0]?.[0] ?? "0-0";
}

type Tail = { lastId: string; subs: Set<Subscriber> };
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A wake-up stream's length: one entry is enough to end a blocked read. */
const WAKE_MAXLEN = 10;
/** A wake-up stream outlives its process by at most this long. */
const WAKE_TTL_MS = 10 * 60_000;

/** The streams of one slot (all streams, on one server) and the blocking reader that reads them. */
class Reader {
  readonly tails = new Map<string, Tail>();
  private client = connect("realtime reader");
  private wakeKey: string;
  /** Only this reader writes its wake-up stream (its process id is random): reading it from 0-0 misses no wake-up. */
  private wakeId = "0-0";
  private gen = 0;
  private readingGen = -1;
  private idle?: () => void;
  private stopped = false;
  readonly done: Promise<void>;

  constructor(
    tag: string,
    processId: string,
    private readonly blockMs: number,
  ) {
    this.wakeKey = keys.hubWake(tag, processId);
    this.done = this.loop();
  }

  add(stream: string, tail: Tail) {
    this.tails.set(stream, tail);
    this.changed();
  }

  remove(stream: string) {
    this.tails.delete(stream);
    this.gen++;
  }

  /** The set of streams changed: read the new set now rather than after the block. */
  changed() {
    this.gen++;
    this.idle?.();
    this.idle = undefined;
    if (this.readingGen >= 0 && this.readingGen < this.gen)
      void redis()
        .multi()
        .xadd(this.wakeKey, "MAXLEN", "~", String(WAKE_MAXLEN), "*", "w", "1")
        .pexpire(this.wakeKey, WAKE_TTL_MS)
        .exec()
        .catch(() => undefined);
  }

  async stop() {
    this.stopped = true;
    this.idle?.();
    this.client.disconnect();
    await this.done.catch(() => undefined);
    await redis()
      .del(this.wakeKey)
      .catch(() => undefined);
  }

  private async loop() {
    while (!this.stopped) {
      if (this.tails.size === 0) {
        this.readingGen = -1;
        await new Promise<void>((r) => (this.idle = r));
        continue;
      }
      const streams = [...this.tails.keys()];
      const ids = streams.map((k) => this.tails.get(k)!.lastId);
      this.readingGen = this.gen;
      let res: Array<[string, Array<[string, string[]]>]> | null;
      try {
        res = (await this.client.xread("COUNT", 1000, "BLOCK", this.blockMs, "STREAMS", ...streams, this.wakeKey, ...ids, this.wakeId)) as typeof res;
      } catch {
        if (this.stopped) break;
        await sleep(200);
        continue;
      }
      for (const [stream, entries] of res ?? []) {
        if (stream === this.wakeKey) {
          if (entries.length) this.wakeId = entries[entries.length - 1][0];
          continue;
        }
        const tail = this.tails.get(stream);
        if (!tail) continue;
        for (const [id, list] of entries) {
          if (cmpId(id, tail.lastId) <= 0) continue;
          tail.lastId = id;
          const entry: Entry = { id, fields: toFields(list) };
          for (const sub of tail.subs) {
            try {
              sub.push(entry);
            } catch (err) {
              console.error("realtime subscriber failed", err);
            }
          }
        }
      }
    }
  }
}

export class StreamHub {
  private readers = new Map<string, Reader>();
  private opening = new Map<string, Promise<Tail>>();
  private readonly processId = randomBytes(8).toString("hex");
  private readonly cluster = isCluster();

  constructor(private readonly blockMs = 5000) {}

  /** Streams read, local subscribers and blocking readers (for /realtime/health and the bench). */
  stats() {
    let subscribers = 0;
    let streams = 0;
    for (const r of this.readers.values()) {
      streams += r.tails.size;
      for (const t of r.tails.values()) subscribers += t.subs.size;
    }
    return { streams, subscribers, readers: this.readers.size };
  }

  async subscribe(stream: string, sub: Subscriber): Promise<void> {
    for (;;) {
      const tail = await this.tailOf(stream);
      // Removed while we waited (its last subscriber left): open it again.
      if (this.readerOf(stream).tails.get(stream) !== tail) continue;
      tail.subs.add(sub);
      return;
    }
  }

  unsubscribe(stream: string, sub: Subscriber) {
    const reader = this.readers.get(this.groupOf(stream));
    const tail = reader?.tails.get(stream);
    if (!reader || !tail) return;
    tail.subs.delete(sub);
    if (tail.subs.size === 0) reader.remove(stream);
  }

  async stop() {
    await Promise.all([...this.readers.values()].map((r) => r.stop()));
    this.readers.clear();
  }

  /** Streams read together: those of one slot on a cluster, all of them on one server. */
  private groupOf(stream: string): string {
    return this.cluster ? String(slotOf(stream)) : "all";
  }

  private readerOf(stream: string): Reader {
    const group = this.groupOf(stream);
    let r = this.readers.get(group);
    if (!r) {
      r = new Reader(this.cluster ? tagOf(stream) : "rt:0", this.processId, this.blockMs);
      this.readers.set(group, r);
    }
    return r;
  }

  private tailOf(stream: string): Promise<Tail> {
    const t = this.readerOf(stream).tails.get(stream);
    if (t) return Promise.resolve(t);
    let p = this.opening.get(stream);
    if (!p) {
      p = topId(stream).then(
        (lastId) => {
          const tail: Tail = { lastId, subs: new Set() };
          this.readerOf(stream).add(stream, tail);
          this.opening.delete(stream);
          return tail;
        },
        (err) => {
          this.opening.delete(stream);
          throw err;
        },
      );
      this.opening.set(stream, p);
    }
    return p;
  }
}

/**
 * One client's reading of one stream: catch-up from `from` (or from now), then live, in id
 * order, each id once. `deliver` gets the entries meant for the client (after `accept`); the
 * cursor moves past every entry, delivered or not.
 */
export class Feed implements Subscriber {
  cursor = "0-0";
  private buffering = true;
  private buffer: Entry[] = [];
  private closed = false;

  constructor(
    private readonly hub: StreamHub,
    readonly stream: string,
    readonly name: string,
    private readonly from: string | null,
    private readonly accept: (e: Entry) => boolean,
    private readonly deliver: (feed: Feed, e: Entry) => void,
  ) {}

  /** Joins the live tail and fixes the starting point (returned: the client's resume id). */
  async prepare(): Promise<string> {
    await this.hub.subscribe(this.stream, this);
    this.cursor = this.from ?? (await topId(this.stream));
    return this.cursor;
  }

  /** Sends what was missed since the starting point, then goes live. */
  async run(): Promise<void> {
    const PAGE = 500;
    for (;;) {
      if (this.closed) return;
      const page = (await redis().xrange(this.stream, `(${this.cursor}`, "+", "COUNT", PAGE)) as Array<[string, string[]]>;
      for (const [id, list] of page) {
        if (this.closed) return;
        this.cursor = id;
        const e: Entry = { id, fields: toFields(list) };
        if (this.accept(e)) this.deliver(this, e);
      }
      if (page.length < PAGE) break;
    }
    const pending = this.buffer;
    this.buffer = [];
    this.buffering = false;
    for (const e of pending) this.push(e);
  }

  push(e: Entry) {
    if (this.closed) return;
    if (this.buffering) {
      this.buffer.push(e);
      return;
    }
    if (cmpId(e.id, this.cursor) <= 0) return;
    this.cursor = e.id;
    if (this.accept(e)) this.deliver(this, e);
  }

  close() {
    this.closed = true;
    this.buffer = [];
    this.hub.unsubscribe(this.stream, this);
  }
}
