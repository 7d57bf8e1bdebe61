/**
 * A route-map change reaches the running worker without a restart (ADR 011: the change notice
 * over Redis pub/sub drops the worker's connections snapshot). In a private stack, so repointing
 * T1 never touches the shared run: T1 -> an HTTP connection on a loopback peer (through
 * PUT /api/admin/sms/routes), the very next message goes to the peer; T1 back to the simulator,
 * the next one goes to the simulator. Each switch happens right after a send, while the worker's
 * cached snapshot (1 s) still holds the old route.
 */
import { randomUUID } from "node:crypto";
import { createServer, type Server } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startStack, type Stack } from "../support/stack";
import { DEMO_PASSWORD } from "../support/web";
import { accountsOf, setAccount } from "../support/factories";

const KEY = "routing-peer-key-0123456789";
let stack: Stack;
let peer: Server;
let peerUrl: string;
const peerSubmits: Array<{ reference: string; to: string }> = [];
let staff: string;
let owner: string;

async function until<T>(what: string, fn: () => Promise<T | null | undefined | false>, ms = 15_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (v) return v as T;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

async function loginAs(email: string) {
  const r = await stack.api<{ token: string }>("/api/auth/login", { body: { email, password: DEMO_PASSWORD } });
  if (r.status !== 200) throw new Error(`login ${email}: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body.token;
}

beforeAll(async () => {
  peer = createServer((req, res) => {
    let data = "";
    req.on("data", (c) => (data += c));
    req.on("end", () => {
      if (req.method !== "POST" || req.url !== "/p/messages" || req.headers.authorization !== `Bearer ${KEY}`) return res.writeHead(404).end();
      const body = JSON.parse(data);
      peerSubmits.push({ reference: body.reference, to: body.to });
      res.writeHead(202, { "Content-Type": "application/json" }).end(JSON.stringify({ id: `peer-${randomUUID()}` }));
    });
  });
  await new Promise<void>((r) => peer.listen(0, "127.0.0.1", () => r()));
  peerUrl = `http://127.0.0.1:${(peer.address() as { port: number }).port}/p`;
  stack = await startStack();
  staff = await loginAs("staff@demo.example");
  owner = await loginAs("owner@demo.example");
  for (const accountId of await accountsOf("owner@demo.example", stack.query)) await setAccount(accountId, { balance: 10000000 }, stack.query);
}, 120_000);

afterAll(async () => {
  await stack?.stop();
  await new Promise((r) => peer?.close(() => r(null)));
});

const row = async (id: string) => (await stack.query<{ status: string; provider: string | null }>("SELECT status, provider FROM messages WHERE id = $1", [id]))[0];

async function sendAndWait(to: string) {
  const r = await stack.api("/api/sms/messages", { token: owner, body: { to, body: "Rota nova?" } });
  expect(r.status).toBe(200);
  const id: string = r.body.data[0].id;
  await until(`${id} submitted`, async () => {
    const m = await row(id);
    return m && ["sent", "delivered", "failed", "unavailable"].includes(m.status) ? m : null;
  });
  return { id, ...(await row(id)) };
}

describe("route map changes without a restart", () => {
  it("T1 -> an HTTP connection: the next message goes to its peer; back to the simulator: the next one goes there", async () => {
    const created = await stack.api("/api/admin/providers", { token: staff, body: { name: "loopback_peer", kind: "http", url: peerUrl, api_key: KEY } });
    expect(created.status).toBe(201);
    const peerId = created.body.data.id;
    const map = await stack.api("/api/admin/sms/routes", { token: staff });
    const simulatorId = map.body.data.find((r: { route: string }) => r.route === "T1").connection_id;

    // The worker has just used (and cached) the route map when the change comes.
    const first = await sendAndWait("+5511955550001");
    expect(first.provider).toBe("simulator");
    const put = await stack.api("/api/admin/sms/routes", { token: staff, method: "PUT", body: { T1: peerId } });
    expect(put.status).toBe(200);
    expect(put.body.data.find((r: { route: string }) => r.route === "T1")).toEqual({ route: "T1", connection_id: peerId, connection_name: "loopback_peer" });
    const second = await sendAndWait("+5511955550002");
    expect(second.provider).toBe("loopback_peer");
    expect(peerSubmits.filter((s) => s.reference === second.id)).toEqual([{ reference: second.id, to: "+5511955550002" }]);
    expect(peerSubmits.some((s) => s.reference === first.id)).toBe(false);

    // The connection is routed now: it cannot be deleted.
    expect((await stack.api(`/api/admin/providers/${peerId}`, { token: staff, method: "DELETE" })).status).toBe(409);

    const back = await stack.api("/api/admin/sms/routes", { token: staff, method: "PUT", body: { T1: simulatorId } });
    expect(back.status).toBe(200);
    const third = await sendAndWait("+5511955550003");
    expect(third.provider).toBe("simulator");
    expect(peerSubmits.some((s) => s.reference === third.id)).toBe(false);
    const stats = await stack.simulator<{ references: Record<string, number> }>();
    expect([stats.references[first.id], stats.references[second.id], stats.references[third.id]]).toEqual([1, undefined, 1]);

    expect((await stack.api(`/api/admin/providers/${peerId}`, { token: staff, method: "DELETE" })).status).toBe(200);
  }, 60_000);
});
