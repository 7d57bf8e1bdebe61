/**
 * One reader per realtime process for every Redis Stream its clients follow: a single blocking
 * XREAD over all of them (never one Redis connection per client), whose entries are handed to
 * each local subscriber. When the set of streams changes, the blocked read is interrupted with
 * CLIENT UNBLOCK so a new stream is read at once.
 *
 * A client's `Feed` joins the hub first, then reads what it missed with XRANGE (from the last id
 * it saw), then delivers the live entries it buffered meanwhile, skipping any id it already
 * sent: nothing is lost between the catch-up and the live tail, and nothing is sent twice.
 */
import { connect, redis } from "../api/lib/redis";

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

export class StreamHub {
  private tails = new Map<string, Tail>();
  private opening = new Map<string, Promise<Tail>>();
  private reader = connect();
  private readerId: string | null = null;
  private gen = 0;
  private readingGen = -1;
  private blocked = false;
  private waking = false;
  private idle?: () => void;
  private stopped = false;
  private done: Promise<void>;

  constructor(private readonly blockMs = 5000) {
    this.reader.on("ready", () => {
      this.reader.client("ID").then(
        (id) => (this.readerId = String(id)),
        () => undefined,
      );
    });
    this.done = this.loop();
  }

  /** Streams read and local subscribers (for /realtime/health and the bench). */
  stats() {
    let subscribers = 0;
    for (const t of this.tails.values()) subscribers += t.subs.size;
    return { streams: this.tails.size, subscribers };
  }

  async subscribe(stream: string, sub: Subscriber): Promise<void> {
    for (;;) {
      const tail = await this.tailOf(stream);
      // Removed while we waited (its last subscriber left): open it again.
      if (this.tails.get(stream) !== tail) continue;
      tail.subs.add(sub);
      return;
    }
  }

  unsubscribe(stream: string, sub: Subscriber) {
    const tail = this.tails.get(stream);
    if (!tail) return;
    tail.subs.delete(sub);
    if (tail.subs.size === 0) {
      this.tails.delete(stream);
      this.gen++;
    }
  }

  async stop() {
    this.stopped = true;
    this.idle?.();
    this.reader.disconnect();
    await this.done.catch(() => undefined);
  }

  private tailOf(stream: string): Promise<Tail> {
    const t = this.tails.get(stream);
    if (t) return Promise.resolve(t);
    let p = this.opening.get(stream);
    if (!p) {
      p = topId(stream).then(
        (lastId) => {
          const tail: Tail = { lastId, subs: new Set() };
          this.tails.set(stream, tail);
          this.opening.delete(stream);
          this.gen++;
          this.wake();
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

  /** Make the read loop pick up a changed set of streams now rather than after its block. */
  private wake() {
    this.idle?.();
    this.idle = undefined;
    if (this.waking) return;
    this.waking = true;
    void (async () => {
      while (!this.stopped && this.readingGen < this.gen && this.tails.size > 0) {
        if (this.blocked && this.readerId)
          await redis()
            .client("UNBLOCK", this.readerId)
            .catch(() => undefined);
        await sleep(15);
      }
      this.waking = false;
    })();
  }

  private async loop() {
    while (!this.stopped) {
      if (this.tails.size === 0) {
        await new Promise<void>((r) => (this.idle = r));
        continue;
      }
      const keys = [...this.tails.keys()];
      const ids = keys.map((k) => this.tails.get(k)!.lastId);
      this.readingGen = this.gen;
      let res: Array<[string, Array<[string, string[]]>]> | null;
      try {
        this.blocked = true;
        res = (await this.reader.xread("COUNT", 1000, "BLOCK", this.blockMs, "STREAMS", ...keys, ...ids)) as typeof res;
      } catch {
        this.blocked = false;
        if (this.stopped) break;
        await sleep(200);
        continue;
      } finally {
        this.blocked = false;
      }
      for (const [stream, entries] of res ?? []) {
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
