/**
 * The flow runtime's two screens (issue 20) driven like a browser with JavaScript off: real streams
 * made through the runtime (a published flow on the webchat, visitors writing through the public
 * widget endpoint, the worker walking them), then /flows/{id}/stream/{streamId} (the steps, what
 * each left, the variables and their changes; Cancel from the page puts the room in the queue; a
 * stream of another flow or account is 404) and /flows/reports (counts per flow, the funnel per
 * step in path order, the streams list and its status filter, bad filters refused).
 */
import { beforeAll, describe, expect, it } from "vitest";
import { api, giveOmni } from "../support/api";
import { query } from "../support/db";
import { makeLiveSettings, setUser } from "../support/factories";
import { location, signedInCustomer, type WebCustomer } from "../support/web";

const visible = (html: string) =>
  html
    .replace(/<script[\s\S]*?<\/script>/g, " ")
    .replace(/<!-- -->/g, "")
    .replace(/<[^>]+>/g, " ")
    .replace(/&#x27;/g, "'")
    .replace(/\s+/g, " ");

let me: WebCustomer;
let other: WebCustomer;
let widgetKey: string;
let flowId: string;
let otherFlowId: string;
const streams: Record<"finished" | "handed" | "dropped" | "waiting", { stream: string; room: string }> = {} as never;

const at = (i: number) => ({ x: 0, y: i * 140 });
const DEF = {
  nodes: [
    { id: "start", type: "start", position: at(0), data: {} },
    { id: "hi", type: "message", position: at(1), data: { text: "Hello {{first_name}}" } },
    { id: "ask", type: "question", position: at(2), data: { text: "Your e-mail?", check: "email", store: { kind: "variable", name: "email" }, retries: 0 } },
    { id: "menu", type: "question", position: at(3), data: { text: "End or Agent?", check: "choice", choices: ["End", "Agent"], store: { kind: "variable", name: "choice" } } },
    { id: "cond", type: "condition", position: at(4), data: { rules: [{ id: "x", subject: "variable", name: "choice", op: "equals", value: "Agent" }] } },
    { id: "human", type: "handoff", position: at(5), data: {} },
    { id: "bye", type: "end", position: at(5), data: { message: "Bye {{email}}" } },
  ],
  edges: [
    { id: "e1", source: "start", output: "next", target: "hi" },
    { id: "e2", source: "hi", output: "next", target: "ask" },
    { id: "e3", source: "ask", output: "answer", target: "menu" },
    { id: "e4", source: "menu", output: "answer", target: "cond" },
    { id: "e5", source: "cond", output: "x", target: "human" },
    { id: "e6", source: "cond", output: "else", target: "bye" },
  ],
};

async function create(c: WebCustomer, name: string) {
  const res = await c.client.post("/flows/create", { name, channel: "webchat", trigger: "inbound" });
  expect(res.status, await res.clone().text()).toBe(302);
  return location(res)!.split("/").pop()!;
}

type Visitor = { visitor_id: string; visitor_token: string; room: { id: string; status: string } };
let n = 0;
async function visitor(): Promise<Visitor> {
  const res = await api(`/api/widget/${widgetKey}/messages`, { body: { name: `Maria Souza${++n}`, message: "Oi" } });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body;
}
async function say(v: Visitor, message: string) {
  const res = await api(`/api/widget/${widgetKey}/messages`, { body: { visitor_id: v.visitor_id, visitor_token: v.visitor_token, message } });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
}
const streamOf = async (roomId: string) =>
  (await query<{ id: string; status: string; node_id: string; waiting: string | null }>(`SELECT * FROM flow_streams WHERE room_id = $1`, [roomId]))[0];
/** Waits until the room's stream is at `node` in `status` (and, when waiting, waiting for an answer). */
async function reached(roomId: string, status: string, node: string) {
  await expect.poll(async () => ((s) => (s ? `${s.status}:${s.node_id}` : null))(await streamOf(roomId)), { timeout: 15_000, interval: 50 }).toBe(`${status}:${node}`);
  return (await streamOf(roomId)).id;
}
const roomStatus = async (roomId: string) => (await query<{ status: string }>(`SELECT status FROM live_rooms WHERE id = $1`, [roomId]))[0].status;

beforeAll(async () => {
  me = await signedInCustomer("flows-rep");
  await giveOmni(me.accountId);
  await setUser(me.userId, { locale: "en" });
  other = await signedInCustomer("flows-rep-other");
  await giveOmni(other.accountId);
  widgetKey = await makeLiveSettings(me.accountId);

  flowId = await create(me, "Support bot");
  const published = await me.client.post(`/flows/${flowId}`, { intent: "publish", draft: JSON.stringify(DEF) });
  expect(published.status, await published.clone().text()).toBe(302);
  otherFlowId = await create(me, "Another flow");
});

describe("/flows/{id}/stream/{streamId}", () => {
  // expect.poll runs inside a test: this one makes the streams the others read (a file's tests run in order).
  it("the runtime walks four conversations: finished, handed off, dropped and one left waiting", async () => {
    // Four conversations: finished, handed off, dropped (an invalid e-mail, no retries) and one left waiting.
    const [a, b, c, d] = [await visitor(), await visitor(), await visitor(), await visitor()];
    for (const v of [a, b, c, d]) await reached(v.room.id, "waiting", "ask");
    await say(a, "maria@example.com");
    await say(b, "bob@example.com");
    await say(c, "not an e-mail");
    await reached(a.room.id, "waiting", "menu");
    await reached(b.room.id, "waiting", "menu");
    await say(a, "end");
    await say(b, "Agent");
    streams.finished = { stream: await reached(a.room.id, "finished", "bye"), room: a.room.id };
    streams.handed = { stream: await reached(b.room.id, "handed_off", "human"), room: b.room.id };
    streams.dropped = { stream: await reached(c.room.id, "dropped", "ask"), room: c.room.id };
    streams.waiting = { stream: (await streamOf(d.room.id)).id, room: d.room.id };
    expect(
      Object.values(streams)
        .map((x) => x.stream)
        .every(Boolean),
    ).toBe(true);
  }, 60_000);

  it("shows the path: each step's node, output, what happened and the variables after it, changes marked", async () => {
    const { res, html } = await me.client.page(`/flows/${flowId}/stream/${streams.finished.stream}`);
    expect(res.status).toBe(200);
    const text = visible(html);
    expect(text).toContain("Support bot v1");
    expect(html).toMatch(/data-testid="stream-status"[^>]*data-status="finished"/);
    expect(text).toContain("Finished");
    expect(text).toContain("The flow reached its end.");
    expect(text).toContain("Maria Souza1");
    expect(html).toContain(`href="/live/history/${streams.finished.room}"`);
    // No Cancel once ended.
    expect(text).not.toContain("Cancel this run");

    const rows = [...html.matchAll(/data-testid="stream-step" data-seq="(\d+)" data-node="([\w-]+)"/g)].map((m) => `${m[1]}:${m[2]}`);
    const steps = await query<{ seq: number; node_id: string }>(`SELECT seq, node_id FROM flow_steps WHERE stream_id = $1 ORDER BY seq`, [streams.finished.stream]);
    expect(rows).toEqual(steps.map((s) => `${s.seq}:${s.node_id}`));
    expect(rows).toEqual(["1:start", "2:hi", "3:ask", "4:ask", "5:menu", "6:menu", "7:cond", "8:bye"]);
    // What happened: the bot's texts, the visitor's answers, the translated node types and outputs.
    expect(text).toContain("Bot sent Hello Maria");
    expect(text).toContain("Visitor answered maria@example.com");
    expect(text).toContain("Visitor answered end");
    expect(text).toContain("Stored End");
    expect(text).toContain("Question ask");
    expect(text).toContain("Condition cond");
    // The variables after each step: e-mail from step 4 on (marked changed once), the choice from step 6 on.
    expect(html.match(/<code class="text-xs">email<\/code>/g)?.length).toBe(5);
    expect(html.match(/data-changed="true"[^>]*><code class="text-xs">email<\/code>/g)?.length).toBe(1);
    expect(html.match(/<code class="text-xs">choice<\/code>/g)?.length).toBe(3);
    expect(html.match(/data-changed="true"[^>]*><code class="text-xs">choice<\/code>/g)?.length).toBe(1);
  });

  it("a dropped stream shows why, and its invalid answer", async () => {
    const text = visible((await me.client.page(`/flows/${flowId}/stream/${streams.dropped.stream}`)).html);
    expect(text).toContain("Dropped");
    expect(text).toContain("invalid answers");
    expect(text).toContain("Visitor answered not an e-mail");
    expect(text).toContain("Invalid answer");
  });

  it("Cancel from the page (CSRF, post-redirect-get): the stream is cancelled and the room goes to the queue; again is refused", async () => {
    const path = `/flows/${flowId}/stream/${streams.waiting.stream}`;
    const before = visible((await me.client.page(path)).html);
    expect(before).toContain("Waiting");
    expect(before).toContain("Cancel this run");
    expect((await me.client.post(path, { intent: "cancel" }, { csrf: null })).status).toBe(403);
    expect((await streamOf(streams.waiting.room)).status).toBe("waiting");

    const res = await me.client.post(path, { intent: "cancel" });
    expect([res.status, location(res)]).toEqual([302, path]);
    expect((await streamOf(streams.waiting.room)).status).toBe("cancelled");
    expect(await roomStatus(streams.waiting.room)).toBe("QUEUE");
    const after = visible((await me.client.page(path)).html);
    expect(after).toContain("Cancelled");
    expect(after).toContain("Flow run cancelled; the conversation went to the queue");
    expect(after).not.toContain("Cancel this run");

    const again = await me.client.post(path, { intent: "cancel" });
    expect(again.status).toBe(409);
    expect(visible(await again.text())).toContain("This flow run has already ended");
  });

  it("another account's stream, or a stream under another flow, is not found (and cannot be cancelled)", async () => {
    expect((await other.client.get(`/flows/${flowId}/stream/${streams.finished.stream}`)).status).toBe(404);
    expect((await me.client.get(`/flows/${otherFlowId}/stream/${streams.finished.stream}`)).status).toBe(404);
    expect((await me.client.get(`/flows/${flowId}/stream/not-a-uuid`)).status).toBe(404);
    const refused = await other.client.post(`/flows/${flowId}/stream/${streams.handed.stream}`, { intent: "cancel" });
    expect(refused.status).toBe(404);
    expect((await streamOf(streams.handed.room)).status).toBe("handed_off");
  });
});

describe("/flows/reports", () => {
  const counts = (html: string, flow: string) => {
    const row = new RegExp(`data-testid="report-flow" data-flow-id="${flow}"[\\s\\S]*?</tr>`).exec(html)?.[0] ?? "";
    return Object.fromEntries([...row.matchAll(/data-count="(\w+)">(\d+)</g)].map((m) => [m[1], Number(m[2])]));
  };

  it("counts per flow and the funnel per step in path order; the list links each stream to its path", async () => {
    const { res, html } = await me.client.page(`/flows/reports?flow=${flowId}`);
    expect(res.status).toBe(200);
    expect(counts(html, flowId)).toEqual({ entered: 4, finished: 1, dropped: 1, handed_off: 1, cancelled: 1, failed: 0, live: 0 });
    const funnel = [...html.matchAll(/data-node="([\w-]+)" data-entered="(\d+)" data-finished="(\d+)" data-dropped="(\d+)" data-handed-off="(\d+)"/g)].map((m) =>
      m.slice(1).join(" "),
    );
    expect(funnel).toEqual(["start 4 0 0 0", "hi 4 0 0 0", "ask 4 0 1 0", "menu 2 0 0 0", "cond 2 0 0 0", "human 1 0 0 1", "bye 1 1 0 0"]);
    const listed = [...html.matchAll(/data-testid="report-stream" data-stream-id="([\w-]+)"/g)].map((m) => m[1]).sort();
    expect(listed).toEqual(
      Object.values(streams)
        .map((s) => s.stream)
        .sort(),
    );
    for (const s of Object.values(streams)) expect(html).toContain(`href="/flows/${flowId}/stream/${s.stream}"`);
    // The default period: the last 30 São Paulo days up to today.
    const today = new Intl.DateTimeFormat("en-CA", { timeZone: "America/Sao_Paulo" }).format(new Date());
    const from = new Date(Date.parse(`${today}T12:00:00Z`) - 29 * 86_400_000).toISOString().slice(0, 10);
    expect(html).toMatch(new RegExp(`name="from"[^>]*value="${from}"`));
    expect(html).toMatch(new RegExp(`name="to"[^>]*value="${today}"`));
  });

  it("filters the list by status and the period; refuses bad filters; another account sees none of it", async () => {
    const dropped = (await me.client.page(`/flows/reports?flow=${flowId}&status=dropped`)).html;
    expect([...dropped.matchAll(/data-testid="report-stream" data-stream-id="([\w-]+)"/g)].map((m) => m[1])).toEqual([streams.dropped.stream]);
    // A period before today: nothing.
    const old = visible((await me.client.page(`/flows/reports?flow=${flowId}&from=2025-01-01&to=2025-01-31`)).html);
    expect(old).toContain("No conversation went through a flow in this period.");
    const bad = await me.client.page(`/flows/reports?from=2025-13-01`);
    expect(bad.res.status).toBe(422);
    expect(visible(bad.html)).toContain("Invalid date");
    const order = await me.client.page(`/flows/reports?from=2025-02-01&to=2025-01-01`);
    expect(order.res.status).toBe(422);
    expect(visible(order.html)).toContain("The end date must be on or after the start date");
    // All flows: the flow's row is there; the other account's report has neither the flow nor its streams.
    expect(counts((await me.client.page("/flows/reports")).html, flowId).entered).toBe(4);
    const theirs = await other.client.page(`/flows/reports?flow=${flowId}`);
    expect(theirs.res.status).toBe(422);
    expect(theirs.html).not.toContain(streams.finished.stream);
    const theirAll = (await other.client.page("/flows/reports")).html;
    expect(theirAll).not.toContain(flowId);
  });

  it("the flows list links to the reports and to each flow's report", async () => {
    const html = (await me.client.page("/flows")).html;
    expect(html).toContain('href="/flows/reports"');
    expect(html).toContain(`href="/flows/reports?flow=${flowId}"`);
  });
});
