/**
 * The flow runtime survives kill -9 (ADR 054): on a private stack, 1,000 streams wait on a
 * question; their answers are written while no worker runs; a worker (a child process) starts on
 * the backlog and is killed with SIGKILL mid-way; two more start side by side. Every stream must advance exactly
 * once: three bot messages per room (the question, the echo of its answer, the next question),
 * steps 1..5 without gap or repeat, no input left.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startStack, type Stack } from "../support/stack";

const STREAMS = 1000;
let stack: Stack;
let token: string;
let accountId: string;
let widgetKey: string;

/** Runs `fn` over `items`, `width` at a time. */
async function pool<T>(items: T[], width: number, fn: (item: T) => Promise<unknown>) {
  let next = 0;
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (next < items.length) await fn(items[next++]);
    }),
  );
}

const count = async (sql: string, params: unknown[] = []) => Number((await stack.query<{ n: number }>(sql, params))[0].n);
/** Streams that took the answer (their 5th step is the second question). */
const advanced = () => count(`SELECT count(*)::int AS n FROM flow_streams WHERE account_id = $1 AND steps >= 5`, [accountId]);

beforeAll(async () => {
  stack = await startStack({
    workers: 0,
    env: {
      FLOW_SWEEP_MS: "200",
      FLOW_RECOVER_MS: "1000",
      WIDGET_CALLS_PER_IP_PER_MINUTE: "1000000",
      WIDGET_CALLS_PER_KEY_PER_MINUTE: "1000000",
      WIDGET_STARTS_PER_IP_PER_HOUR: "1000000",
    },
  });
  ({ token, accountId } = await stack.signInDemoOwner());
  [{ widget_key: widgetKey }] = await stack.query<{ widget_key: string }>(`SELECT widget_key FROM live_settings WHERE account_id = $1`, [accountId]);
  await stack.query(`UPDATE flows SET status = 'inactive' WHERE account_id = $1 AND status = 'active'`, [accountId]);
  const edges = [
    ["start", "next", "q1"],
    ["q1", "answer", "echo"],
    ["echo", "next", "q2"],
    ["q2", "answer", "end"],
  ].map(([source, output, target], i) => ({ id: `e${i}`, source, output, target }));
  const draft = {
    nodes: [
      { id: "start", type: "start", data: {} },
      { id: "q1", type: "question", data: { text: "Seu pedido?", check: "text", store: { kind: "variable", name: "pedido" } } },
      { id: "echo", type: "message", data: { text: "Recebi {{pedido}}" } },
      { id: "q2", type: "question", data: { text: "Algo mais?", check: "text", store: { kind: "variable", name: "mais" } } },
      { id: "end", type: "end", data: {} },
    ],
    edges,
  };
  const created = await stack.api("/api/flow/flows", { token, body: { name: "Crash", channel: "webchat", trigger: "inbound", draft } });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  expect((await stack.api(`/api/flow/flows/${created.body.data.id}/publish`, { token, method: "POST" })).status).toBe(200);
}, 180_000);

afterAll(async () => {
  await stack?.stop();
});

describe("flow runtime under kill -9", () => {
  it("1,000 streams: a worker killed mid-way, two more started side by side: every stream advanced exactly once", async () => {
    const first = stack.startWorker();
    const visitors: Array<{ visitor_id: string; visitor_token: string; room: { id: string } }> = [];
    await pool(
      Array.from({ length: STREAMS }, (_, i) => i),
      20,
      async (i) => {
        const res = await stack.api(`/api/widget/${widgetKey}/messages`, { body: { name: `Visitante ${i}`, message: "oi" } });
        expect(res.status, JSON.stringify(res.body)).toBe(200);
        visitors.push(res.body);
      },
    );
    await expect
      .poll(() => count(`SELECT count(*)::int AS n FROM flow_streams WHERE account_id = $1 AND status = 'waiting' AND steps = 2`, [accountId]), { timeout: 60_000, interval: 200 })
      .toBe(STREAMS);
    await stack.kill(first, "SIGTERM");

    // Every answer written while no worker runs: the backlog waits in flow_inputs (and on flows:events).
    await pool(visitors, 20, async (v) => {
      const res = await stack.api(`/api/widget/${widgetKey}/messages`, {
        body: { visitor_id: v.visitor_id, visitor_token: v.visitor_token, message: `pedido-${v.room.id.slice(0, 8)}` },
      });
      expect(res.status).toBe(200);
    });
    expect(await advanced()).toBe(0);

    const victim = stack.startWorker();
    await expect.poll(advanced, { timeout: 60_000, interval: 20 }).toBeGreaterThanOrEqual(300);
    await stack.kill(victim, "SIGKILL");
    const atKill = await advanced();
    console.log(`flows-crash: ${atKill} of ${STREAMS} streams had advanced when the worker was killed`);
    expect(atKill).toBeLessThan(STREAMS);

    // Two workers side by side finish the backlog (and the killed one's pending entries).
    stack.startWorker();
    stack.startWorker();
    await expect.poll(advanced, { timeout: 90_000, interval: 200 }).toBe(STREAMS);
    await expect.poll(() => count(`SELECT count(*)::int AS n FROM flow_inputs WHERE account_id = $1 AND consumed_at IS NULL`, [accountId]), { timeout: 30_000 }).toBe(0);

    // Exactly once: three bot messages per room, the echo of that room's own answer; steps 1..5.
    const perRoom = await stack.query<{ room_id: string; n: number; echoes: string[] }>(
      `SELECT room_id, count(*)::int AS n, array_agg(body ORDER BY created_at) FILTER (WHERE body LIKE 'Recebi %') AS echoes
         FROM live_messages WHERE account_id = $1 AND author = 'bot' GROUP BY room_id`,
      [accountId],
    );
    expect(perRoom).toHaveLength(STREAMS);
    expect(perRoom.filter((r) => r.n !== 3)).toEqual([]);
    expect(perRoom.filter((r) => r.echoes.length !== 1 || r.echoes[0] !== `Recebi pedido-${r.room_id.slice(0, 8)}`)).toEqual([]);
    const paths = await stack.query<{ stream_id: string; seqs: number[]; nodes: string[] }>(
      `SELECT stream_id, array_agg(seq ORDER BY seq) AS seqs, array_agg(node_id || ':' || coalesce(output, '-') ORDER BY seq) AS nodes
         FROM flow_steps WHERE account_id = $1 GROUP BY stream_id`,
      [accountId],
    );
    expect(paths).toHaveLength(STREAMS);
    expect(paths.filter((p) => p.seqs.join() !== "1,2,3,4,5" || p.nodes.join() !== "start:next,q1:-,q1:answer,echo:next,q2:-")).toEqual([]);
    expect(await count(`SELECT count(*)::int AS n FROM flow_streams WHERE account_id = $1 AND (status <> 'waiting' OR node_id <> 'q2' OR steps <> 5)`, [accountId])).toBe(0);
  }, 300_000);
});
