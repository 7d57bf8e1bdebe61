/**
 * Our SMPP server (api/smpp/server.ts) with a real SMPP client over loopback: SMPP users created
 * through the API bind (or are refused with the proper command status), submit_sm enters the
 * same accept pipeline (billing, route, concatenated parts as one message), the simulator's
 * receipt comes back as a deliver_sm receipt — also after a later bind — and the user's tps
 * answers ESME_RTHROTTLED.
 */
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import smpp from "smpp";
import { concatUdh, parseReceiptText, STATUS } from "../../api/channels/smpp/protocol";
import { simulatedOutcome } from "../../api/simulator/outcome";
import { BIND_FAILURES_PER_IP, MAX_FAILED_BINDS } from "../../api/smpp/limits";
import { api, giveShortCode, login, registerPerson } from "../support/api";
import { db, query } from "../support/db";
import { smppClient, type TestClient } from "../support/smpp-client";
import { DEMO_PASSWORD } from "../support/web";
import { setAccount } from "../support/factories";

const STAT = { delivered: "DELIVRD", failed: "UNDELIV", unavailable: "EXPIRED" } as const;
let token: string;
let accountId: string;
/** The account's own short code: the source_addr its submits use. */
let code: string;
const clients: TestClient[] = [];
const port = () => inject("smppPort");
const tag = Date.now().toString(36).slice(-6);

async function client(localAddress?: string) {
  const c = await smppClient(port(), { localAddress });
  clients.push(c);
  return c;
}

/** `promise`, or an error naming `step` when it has not settled within `ms`. */
async function within<T>(step: string, promise: Promise<T>, ms = 10_000): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${step}: not done in ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([promise, late]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * The receipt of message `id` on `c` (matched by `match`: by default its receipted_message_id).
 * One that does not come within `ms` (inside the test's 60 s) fails naming where the message is —
 * its status and events, its outbox row, its owed receipt — so a lost receipt says which stage
 * held it (one went missing on the Redis Cluster pass now and then).
 */
async function receiptOf(c: TestClient, id: string, ms = 45_000, match: Parameters<TestClient["waitDeliver"]>[0] = (p) => p.receipted_message_id === id) {
  try {
    return await c.waitDeliver(match, ms);
  } catch (e) {
    const [m] = await query("SELECT status, error_code, sent_at, delivered_at, failed_at, updated_at FROM messages WHERE id = $1", [id]);
    const events = await query("SELECT status, source, created_at FROM message_events WHERE message_id = $1 ORDER BY created_at", [id]);
    const outbox = await query("SELECT id, topic, created_at, published_at FROM outbox WHERE payload->>'message_id' = $1", [id]);
    const [owed] = await query("SELECT registered_delivery, receipt_sent_at FROM smpp_messages WHERE message_id = $1", [id]);
    throw new Error(
      `${(e as Error).message} at ${new Date().toISOString()}; message ${JSON.stringify(m)}; events ${JSON.stringify(events)}; outbox ${JSON.stringify(outbox)}; smpp ${JSON.stringify(owed)}`,
    );
  }
}

async function createUser(t: string, body: Record<string, unknown>) {
  const res = await api("/api/smpp/users", { token: t, body });
  // A create: 201 with the new user's URL in Location.
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  expect(res.headers.get("location")).toBe(`/api/smpp/users/${res.body.data.id}`);
  return res.body as { data: { id: string; system_id: string; tps: number; route: string; enabled: boolean }; password: string };
}

beforeAll(async () => {
  const p = await registerPerson("smppsrv");
  accountId = p.accountId;
  token = (await login(p.email, p.password)).token;
  await setAccount(accountId, { balance: 100000 });
  code = await giveShortCode(accountId);
});

afterAll(async () => {
  await Promise.all(clients.map((c) => c.close()));
});

describe("SMPP users API", () => {
  it("creates a user with a generated password shown once, stored as an argon2id hash; lists, edits, deletes", async () => {
    const created = await createUser(token, { system_id: `api${tag}`, route: "T1", tps: 5 });
    expect(created.password).toMatch(/^[A-Za-z0-9]{8}$/);
    expect(created.data).toMatchObject({ system_id: `api${tag}`, route: "T1", tps: 5, enabled: true });
    expect(JSON.stringify(created.data)).not.toContain("password");
    const [row] = await query<{ password_hash: string; account_id: string }>("SELECT password_hash, account_id FROM smpp_users WHERE id = $1", [created.data.id]);
    expect(row.password_hash.startsWith("$argon2id$")).toBe(true);
    expect(row.account_id).toBe(accountId);

    // Location names the same user, read back (never with its password).
    const one = await api(`/api/smpp/users/${created.data.id}`, { token });
    expect(one.status).toBe(200);
    expect(one.body).toEqual({ data: created.data });

    const list = await api("/api/smpp/users", { token });
    expect(list.body.data.map((u: { id: string }) => u.id)).toContain(created.data.id);
    expect(list.body.next_cursor).toBeNull();
    expect(JSON.stringify(list.body)).not.toMatch(/password/);

    const dup = await api("/api/smpp/users", { token, body: { system_id: `api${tag}` } });
    expect(dup.status).toBe(422);
    expect(dup.body.error.fields.system_id).toBeTruthy();
    const bad = await api("/api/smpp/users", { token, body: { system_id: "a b", tps: 0 } });
    expect(bad.status).toBe(422);
    expect(Object.keys(bad.body.error.fields).sort()).toEqual(["system_id", "tps"]);

    const put = await api(`/api/smpp/users/${created.data.id}`, { token, method: "PUT", body: { route: "T2", tps: 7, enabled: false } });
    expect(put.status).toBe(200);
    expect(put.body.data).toMatchObject({ route: "T2", tps: 7, enabled: false });
    expect(put.body.password).toBeUndefined();

    // Another account cannot see or change it.
    const other = await registerPerson("smppother");
    const otherToken = (await login(other.email, other.password)).token;
    expect((await api(`/api/smpp/users/${created.data.id}`, { token: otherToken, method: "PUT", body: { route: "T1", tps: 1 } })).status).toBe(404);
    expect((await api("/api/smpp/users", { token: otherToken, method: "DELETE", body: { ids: [created.data.id] } })).body).toEqual({ deleted: 0 });

    // Roles without /sms/smpp in their allow-list (agent) are refused.
    const agent = await login("agent@demo.example", DEMO_PASSWORD);
    expect((await api("/api/smpp/users", { token: agent.token })).status).toBe(403);
    expect((await api("/api/smpp/users", { token: agent.token, body: { system_id: `agt${tag}` } })).status).toBe(403);

    const second = await createUser(token, { system_id: `apb${tag}` });
    const bulk = await api("/api/smpp/users", { token, method: "DELETE", body: { ids: [created.data.id, second.data.id] } });
    expect(bulk.body).toEqual({ deleted: 2 });
    expect(await query("SELECT 1 FROM smpp_users WHERE id = ANY($1::uuid[])", [[created.data.id, second.data.id]])).toHaveLength(0);
  });
});

describe("SMPP users API: pages by keyset", () => {
  it("?limit= pages newest first; next_cursor walks every user once and is null at the end; a bad cursor is 422 on cursor", async () => {
    const p = await registerPerson("smpppage");
    const t = (await login(p.email, p.password)).token;
    const made: string[] = [];
    for (const n of [1, 2, 3, 4, 5]) made.push((await createUser(t, { system_id: `pg${n}${tag}` })).data.id);

    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const res: { status: number; body: any } = await api(`/api/smpp/users?limit=2${cursor ? `&cursor=${cursor}` : ""}`, { token: t });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body.data.length).toBeLessThanOrEqual(2);
      seen.push(...res.body.data.map((u: { id: string }) => u.id));
      cursor = res.body.next_cursor;
      pages++;
    } while (cursor && pages < 10);
    expect(pages).toBe(3);
    expect(cursor).toBeNull();
    // Every user once, newest first.
    expect(seen).toEqual([...made].reverse());

    const bad = await api("/api/smpp/users?cursor=not-a-cursor", { token: t, lang: "en" });
    expect(bad.status).toBe(422);
    expect(Object.keys(bad.body.error.fields)).toEqual(["cursor"]);
    const forged = Buffer.from(JSON.stringify(["2026-01-01T00:00:00.000000Z", "x'; DROP TABLE smpp_users; --"])).toString("base64url");
    expect((await api(`/api/smpp/users?cursor=${forged}`, { token: t })).status).toBe(422);
    expect((await api("/api/smpp/users?limit=0", { token: t })).status).toBe(422);
  });
});

describe("SMPP server", () => {
  let user: { system_id: string; password: string; id: string };

  beforeAll(async () => {
    const u = await createUser(token, { system_id: `srv${tag}`, route: "T1", tps: 50 });
    user = { system_id: u.data.system_id, password: u.password, id: u.data.id };
  });

  it("binds with the right password; wrong password, unknown system_id, disabled user and submit before bind get their statuses", async () => {
    const unbound = await client();
    const early = await unbound.submit({ destination_addr: "5511988887777", short_message: "oi" });
    expect(early.command_status).toBe(STATUS.ESME_RINVBNDSTS);
    expect(await unbound.bind("transceiver", user.system_id, "wrongpw1")).toBe(STATUS.ESME_RBINDFAIL);
    const c2 = await client();
    expect(await c2.bind("transceiver", "nobody-here", "whatever")).toBe(STATUS.ESME_RBINDFAIL);
    const c3 = await client();
    expect(await c3.bind("transmitter", user.system_id, user.password)).toBe(STATUS.ESME_ROK);
    expect(await c3.bind("transmitter", user.system_id, user.password)).toBe(STATUS.ESME_RALYBND);

    const off = await createUser(token, { system_id: `off${tag}`, enabled: false });
    const c4 = await client();
    expect(await c4.bind("transceiver", off.data.system_id, off.password)).toBe(STATUS.ESME_RBINDFAIL);
  });

  it("submit_sm is accepted through the pipeline (debit, route) and its receipt comes back as deliver_sm", async () => {
    const c = await client();
    expect(await c.bind("transceiver", user.system_id, user.password)).toBe(0);
    const before = Number((await query<{ balance: string }>("SELECT balance FROM account_balances WHERE account_id = $1", [accountId]))[0].balance);
    const resp = await c.submit({ source_addr: code, destination_addr: "5511988881001", registered_delivery: 1, short_message: "Seu pedido saiu" });
    expect(resp.command_status).toBe(0);
    const id = resp.message_id as string;
    const [m] = await query<Record<string, any>>("SELECT * FROM messages WHERE id = $1", [id]);
    expect(m).toMatchObject({ account_id: accountId, recipient: "+5511988881001", sender: code, body: "Seu pedido saiu", route: "T1", direction: "outbound" });
    const after = Number((await query<{ balance: string }>("SELECT balance FROM account_balances WHERE account_id = $1", [accountId]))[0].balance);
    expect(before - after).toBe(Number(m.price));

    const receipt = await receiptOf(c, id, 45_000, (p) => (p.esm_class & 0x04) === 0x04 && String(p.short_message?.message ?? "").includes(`id:${id}`));
    const parsed = parseReceiptText(receipt.short_message.message);
    expect(parsed?.stat).toBe(STAT[simulatedOutcome(id)]);
    expect(receipt.receipted_message_id).toBe(id);
    expect(receipt.source_addr).toBe("5511988881001");
    const [owed] = await query<{ receipt_sent_at: Date | null }>("SELECT receipt_sent_at FROM smpp_messages WHERE message_id = $1", [id]);
    expect(owed.receipt_sent_at).not.toBeNull();
    await c.close();
  });

  it("submit_sm from a source_addr the account does not own answers ESME_RINVSRCADR and writes nothing; a concatenated message already on its first part", async () => {
    const other = await registerPerson("smppsrc-other");
    const theirs = await giveShortCode(other.accountId);
    const c = await client();
    // A transmitter: it takes none of the receipts the later tests wait for.
    expect(await c.bind("transmitter", user.system_id, user.password)).toBe(STATUS.ESME_ROK);
    const before = Number((await query<{ balance: string }>("SELECT balance FROM account_balances WHERE account_id = $1", [accountId]))[0].balance);
    for (const source_addr of ["40404", theirs, "BANCO"]) {
      const r = await c.submit({ source_addr, destination_addr: "5511988881101", short_message: "Seu codigo e 1234" });
      expect(r.command_status, source_addr).toBe(STATUS.ESME_RINVSRCADR);
    }
    const part = await c.submit({ source_addr: "40404", destination_addr: "5511988881101", data_coding: 0, short_message: { udh: concatUdh(77, 2, 1), message: "a".repeat(150) } });
    expect(part.command_status).toBe(STATUS.ESME_RINVSRCADR);
    expect(await query("SELECT 1 FROM messages WHERE account_id = $1 AND recipient = '+5511988881101'", [accountId])).toHaveLength(0);
    expect(Number((await query<{ balance: string }>("SELECT balance FROM account_balances WHERE account_id = $1", [accountId]))[0].balance)).toBe(before);
    // Its own short code, and no source (the route's default), are accepted.
    expect((await c.submit({ source_addr: code, destination_addr: "5511988881101", short_message: "ok" })).command_status).toBe(STATUS.ESME_ROK);
    expect((await c.submit({ destination_addr: "5511988881101", short_message: "ok" })).command_status).toBe(STATUS.ESME_ROK);
    await c.close();
  });

  it("concatenated parts (UDH) are accepted as ONE message with the whole text", async () => {
    const c = await client();
    expect(await c.bind("transmitter", user.system_id, user.password)).toBe(0);
    const a = "Primeira parte da mensagem longa, ".repeat(4); // 136 + 34 characters: two SMS parts
    const b = "e esta e a segunda parte da msg.";
    const r1 = await c.submit({ destination_addr: "5511988881002", data_coding: 0, short_message: { udh: concatUdh(42, 2, 1), message: a } });
    const r2 = await c.submit({ destination_addr: "5511988881002", data_coding: 0, short_message: { udh: concatUdh(42, 2, 2), message: b } });
    expect(r1.command_status).toBe(0);
    expect(r2.command_status).toBe(0);
    const rows = await query<{ id: string; body: string; segments: number }>("SELECT id, body, segments FROM messages WHERE account_id = $1 AND recipient = '+5511988881002'", [
      accountId,
    ]);
    expect(rows).toHaveLength(1);
    expect(rows[0].id).toBe(r2.message_id);
    expect(rows[0].body).toBe(a + b);
    expect(rows[0].segments).toBe(2);
  });

  it("binds of one user on two instances of the server: parts sent to each are ONE message, and its receipt reaches the receiver bound to the other instance", async () => {
    // Two instances behind a load balancer (the suite runs a second one on smppPort2, same database and Redis).
    const one = await client();
    const other = await smppClient(inject("smppPort2"));
    clients.push(other);
    expect(await one.bind("transmitter", user.system_id, user.password)).toBe(0);
    expect(await other.bind("transceiver", user.system_id, user.password)).toBe(0);
    const parts = ["Parte um de tres, enviada a uma instancia. ".repeat(3), "Parte dois, a outra instancia. ".repeat(4), "e o fim."];
    const answers = [];
    for (const [i, message] of parts.entries()) {
      const c = i === 1 ? other : one; // part 2 over the other instance's bind
      answers.push(await c.submit({ destination_addr: "5511988881012", registered_delivery: 1, data_coding: 0, short_message: { udh: concatUdh(43, 3, i + 1), message } }));
    }
    expect(answers.map((a) => a.command_status)).toEqual([0, 0, 0]);
    // Every part is answered with the one message id, whichever instance answered it.
    expect(new Set(answers.map((a) => a.message_id)).size).toBe(1);
    const rows = await query<{ id: string; body: string }>("SELECT id, body FROM messages WHERE account_id = $1 AND recipient = '+5511988881012'", [accountId]);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toEqual({ id: answers[0].message_id, body: parts.join("") });
    // The transmitter's instance has no receiver of the user: the receipt goes out from the other one.
    const receipt = await receiptOf(other, rows[0].id, 30_000);
    expect(parseReceiptText(receipt.short_message.message)?.id).toBe(rows[0].id);
    // The user's later tests expect no other session of it.
    await Promise.all([one.close(), other.close()]);
  });

  it("a receipt produced while the user was unbound goes out on its next bind (receiver)", async () => {
    const tx = await client();
    expect(await tx.bind("transmitter", user.system_id, user.password)).toBe(0);
    const resp = await tx.submit({ destination_addr: "5511988881003", registered_delivery: 1, short_message: "depois" });
    const id = resp.message_id as string;
    await tx.close();
    const until = Date.now() + 15_000;
    while (!["delivered", "failed", "unavailable"].includes((await query<{ status: string }>("SELECT status FROM messages WHERE id = $1", [id]))[0].status)) {
      if (Date.now() > until) throw new Error("not final");
      await new Promise((r) => setTimeout(r, 200));
    }
    const rx = await client();
    expect(await rx.bind("receiver", user.system_id, user.password)).toBe(0);
    const receipt = await receiptOf(rx, id);
    expect(parseReceiptText(receipt.short_message.message)?.id).toBe(id);
    // A receiver bind cannot submit.
    expect((await rx.submit({ destination_addr: "5511988881004", short_message: "x" })).command_status).toBe(STATUS.ESME_RINVBNDSTS);
  });

  it("over the user's tps, submit_sm answers ESME_RTHROTTLED", async () => {
    const slow = await createUser(token, { system_id: `tps${tag}`, tps: 2 });
    const c = await client();
    expect(await c.bind("transceiver", slow.data.system_id, slow.password)).toBe(0);
    const answers = await Promise.all(Array.from({ length: 8 }, (_, i) => c.submit({ destination_addr: `55119888820${i}0`, short_message: `t${i}` })));
    const statuses = answers.map((a) => a.command_status);
    expect(statuses.filter((s) => s === STATUS.ESME_RTHROTTLED).length).toBeGreaterThanOrEqual(4);
    expect(statuses.filter((s) => s === 0).length).toBeGreaterThanOrEqual(1);
    expect(statuses.every((s) => s === 0 || s === STATUS.ESME_RTHROTTLED)).toBe(true);
  });

  it("handles a session's requests side by side: a submit held up does not hold the next request, which is answered first", async () => {
    const u = await createUser(token, { system_id: `win${tag}`, route: "T1", tps: 50 });
    const c = await client();
    expect(await c.bind("transceiver", u.data.system_id, u.password)).toBe(0);
    // Another transaction holds the account's balance row: the submit waits at its debit.
    const holder = await db().connect();
    try {
      await holder.query("BEGIN");
      await holder.query("SELECT balance FROM account_balances WHERE account_id = $1 FOR UPDATE", [accountId]);
      const submitted = c.submit({ source_addr: code, destination_addr: "5511988886001", short_message: "Janela aberta" });
      await expect.poll(async () => (await query("SELECT 1 FROM pg_locks WHERE NOT granted AND locktype = 'transactionid'")).length, { timeout: 10_000 }).toBeGreaterThan(0);
      // The next request of the same session is answered while the submit still waits.
      const q = await c.request("query_sm", { message_id: "00000000-0000-4000-8000-000000000000", source_addr: code }, 10_000);
      expect(q.command_status).toBe(STATUS.ESME_RQUERYFAIL);
      expect(c.received.some((p) => p.command === "submit_sm_resp")).toBe(false);
      await holder.query("COMMIT");
      const answer = await submitted;
      expect(answer.command_status).toBe(STATUS.ESME_ROK);
      const order = c.received.map((p) => p.command).filter((x) => x === "query_sm_resp" || x === "submit_sm_resp");
      expect(order).toEqual(["query_sm_resp", "submit_sm_resp"]);
    } finally {
      await holder.query("ROLLBACK").catch(() => undefined);
      holder.release();
      await c.close();
    }
  });

  it("a bind keeps acting as its person only briefly: once the account is suspended, its submits are refused within a second", async () => {
    // Each step is bounded by name: a step that hangs fails as itself, well inside the test's timeout.
    const p = await within("register", registerPerson("smppsusp"));
    const t = (await within("login", login(p.email, p.password))).token;
    await within("balance", setAccount(p.accountId, { balance: 100000 }));
    const u = await within("create the SMPP user", createUser(t, { system_id: `sus${tag}`, route: "T1", tps: 50 }));
    const c = await within("connect", client());
    expect(await c.bind("transceiver", u.data.system_id, u.password)).toBe(0);
    expect((await c.request("submit_sm", { destination_addr: "5511988887501", short_message: "antes" }, 10_000)).command_status).toBe(STATUS.ESME_ROK);
    await within("suspend", setAccount(p.accountId, { status: "suspended" }));
    const suspendedAt = Date.now();
    // expect.poll waits for each attempt: an attempt is bounded so a lost answer fails the poll in time,
    // but past the server's SLOW_REQUEST_MS (10 s), so the server first logs the stage it is held at.
    await expect
      .poll(async () => (await c.request("submit_sm", { destination_addr: "5511988887502", short_message: "depois" }, 14_000)).command_status, { timeout: 15000, interval: 100 })
      .toBe(STATUS.ESME_RSUBMITFAIL);
    expect(Date.now() - suspendedAt).toBeLessThan(3000);
    await c.close();
  });

  it("insufficient balance answers ESME_RSUBMITFAIL and writes nothing", async () => {
    const poor = await registerPerson("smpppoor");
    const poorToken = (await login(poor.email, poor.password)).token;
    await setAccount(poor.accountId, { balance: 0, creditLimit: 0 });
    const u = await createUser(poorToken, { system_id: `poo${tag}` });
    const c = await client();
    expect(await c.bind("transceiver", u.data.system_id, u.password)).toBe(0);
    const r = await c.submit({ destination_addr: "5511988883000", short_message: "sem saldo" });
    expect(r.command_status).toBe(STATUS.ESME_RSUBMITFAIL);
    expect(await query("SELECT 1 FROM messages WHERE account_id = $1", [poor.accountId])).toHaveLength(0);
    const bad = await c.submit({ destination_addr: "12", short_message: "x" });
    expect(bad.command_status).toBe(STATUS.ESME_RINVDSTADR);
  });
});

describe("SMPP bind against guessing (issue 11)", () => {
  let user: { system_id: string; password: string };
  /** A refused bind (which status is the first test's business: here only that it failed). */
  const refused = async (c: TestClient, systemId: string, password: string) => expect(await c.bind("transceiver", systemId, password)).not.toBe(STATUS.ESME_ROK);
  /** Whether the server closed the connection within a few seconds. */
  const closedSoon = (c: TestClient) => Promise.race([c.closed.then(() => true), new Promise<boolean>((r) => setTimeout(() => r(false), 5_000))]);

  beforeAll(async () => {
    const u = await createUser(token, { system_id: `grd${tag}`, route: "T1", tps: 50 });
    user = { system_id: u.data.system_id, password: u.password };
  });

  it("an unknown system_id and a wrong password get the same answer, ESME_RBINDFAIL", async () => {
    const [a, b] = [await client(), await client()];
    const unknown = await a.bind("transceiver", `nobody${tag}`, "whatever");
    const wrong = await b.bind("transceiver", user.system_id, "wrongpw1");
    expect(unknown).toBe(wrong);
    expect(wrong).toBe(STATUS.ESME_RBINDFAIL);
  });

  it("a second bind on a bound session is ESME_RALYBND and the first bind stays", async () => {
    const c = await client();
    expect(await c.bind("transmitter", user.system_id, user.password)).toBe(STATUS.ESME_ROK);
    expect(await c.bind("transceiver", user.system_id, user.password)).toBe(STATUS.ESME_RALYBND);
    expect(await c.bind("transmitter", `nobody${tag}`, "whatever")).toBe(STATUS.ESME_RALYBND);
    expect((await c.submit({ destination_addr: "5511988884001", short_message: "ainda ligado" })).command_status).toBe(STATUS.ESME_ROK);
  });

  it(`after ${MAX_FAILED_BINDS} refused binds the session is closed; fewer leave it open for the right password`, async () => {
    const c = await client();
    for (let i = 0; i < MAX_FAILED_BINDS; i++) await refused(c, i % 2 ? user.system_id : `nobody${tag}`, `wrong${i}xx`);
    expect(await closedSoon(c)).toBe(true);

    const d = await client();
    for (let i = 0; i < MAX_FAILED_BINDS - 1; i++) await refused(d, user.system_id, `wrong${i}xx`);
    expect(await d.bind("transceiver", user.system_id, user.password)).toBe(STATUS.ESME_ROK);
  });

  it(`past ${BIND_FAILURES_PER_IP.limit} failed binds from one IP, every bind from it is refused (even the right password) and closed; other IPs still bind`, async () => {
    // A loopback address of its own (127.0.0.0/8 all reaches the server), so this IP's counter is this test's alone.
    const ip = `127.${1 + Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}.${2 + Math.floor(Math.random() * 250)}`;
    let failures = 0;
    while (failures < BIND_FAILURES_PER_IP.limit) {
      const c = await client(ip);
      for (let i = 0; i < MAX_FAILED_BINDS && failures < BIND_FAILURES_PER_IP.limit; i++, failures++) await refused(c, `guess${failures}`, "whatever");
      await c.close();
    }
    const blocked = await client(ip);
    await refused(blocked, user.system_id, user.password);
    expect(await closedSoon(blocked)).toBe(true);
    const elsewhere = await client();
    expect(await elsewhere.bind("transceiver", user.system_id, user.password)).toBe(STATUS.ESME_ROK);
  }, 180_000); // each refused bind runs a full argon2id check (about a second on a busy machine)
});

describe("SMPP server interoperability (issue 12)", () => {
  /** An account of its own for the tests that count money: nothing else moves its balance. */
  let money: { accountId: string; code: string; user: { system_id: string; password: string } };
  const FINAL = ["delivered", "failed", "unavailable"];
  /** SMPP 3.4 5.2.28 message_state of the simulator's outcome. */
  const STATE = { delivered: 2, failed: 5, unavailable: 3 } as const;
  const row = async (id: string) => (await query<Record<string, any>>("SELECT * FROM messages WHERE id = $1", [id]))[0];
  const byRecipient = (to: string) => query<Record<string, any>>("SELECT * FROM messages WHERE account_id = $1 AND recipient = $2", [accountId, to]);
  const balance = async () => Number((await query<{ balance: string }>("SELECT balance FROM account_balances WHERE account_id = $1", [money.accountId]))[0].balance);
  const untilFinal = (id: string) => expect.poll(async () => (await row(id)).status, { timeout: 20_000, interval: 200 }).toSatisfy((s: string) => FINAL.includes(s));
  const inAnHour = () => new Date(Date.now() + 3_600_000);
  let users = 0;
  /** A transceiver bound as `as`, by default as a new user of the account: receipts go to the one session waiting for them. */
  async function transceiver(as?: { system_id: string; password: string }) {
    if (!as) {
      const u = await createUser(token, { system_id: `iop${tag}${++users}`, route: "T1", tps: 50 });
      as = { system_id: u.data.system_id, password: u.password };
    }
    const c = await client();
    expect(await c.bind("transceiver", as.system_id, as.password)).toBe(STATUS.ESME_ROK);
    return c;
  }

  beforeAll(async () => {
    const p = await registerPerson("smppmoney");
    const t = (await login(p.email, p.password)).token;
    await setAccount(p.accountId, { balance: 100000 });
    const m = await createUser(t, { system_id: `mny${tag}`, route: "T1", tps: 50 });
    money = { accountId: p.accountId, code: await giveShortCode(p.accountId), user: { system_id: m.data.system_id, password: m.password } };
  });

  it("a UCS-2 receipt longer than 254 octets arrives in message_payload (TLV 0x0424) and is not lost", async () => {
    const c = await transceiver();
    const body = "Olá 你好, seu pedido saiu hoje";
    const resp = await c.submit({ source_addr: code, destination_addr: "5511988885001", registered_delivery: 1, data_coding: 8, short_message: body });
    expect(resp.command_status).toBe(STATUS.ESME_ROK);
    const id = resp.message_id as string;
    expect((await row(id)).body).toBe(body);
    const receipt = await receiptOf(c, id);
    expect(receipt.esm_class & 0x04).toBe(0x04);
    expect(receipt.data_coding).toBe(8);
    expect(receipt.short_message.message).toBe("");
    const text = receipt.message_payload.message as string;
    expect(Buffer.byteLength(text, "utf16le")).toBeGreaterThan(254);
    expect(parseReceiptText(text)).toMatchObject({ id, stat: STAT[simulatedOutcome(id)] });
    expect(text).toContain(`text:${[...body].slice(0, 20).join("")}`);
    const [owed] = await query<{ receipt_sent_at: Date | null }>("SELECT receipt_sent_at FROM smpp_messages WHERE message_id = $1", [id]);
    expect(owed.receipt_sent_at).not.toBeNull();
    await c.close();
  });

  it("a concatenated submit answers every part with the message id; the receipt follows part 1's registered_delivery and carries that id", async () => {
    const c = await transceiver();
    const texts = ["Parte um da mensagem. ".padEnd(153, "a"), "Parte dois da mensagem ".padEnd(153, "b"), "e o fim."];
    const answers = [];
    for (const [i, t] of texts.entries()) {
      answers.push(
        await c.submit({
          source_addr: code,
          destination_addr: "5511988885002",
          data_coding: 0,
          registered_delivery: i === 0 ? 1 : 0,
          short_message: { udh: concatUdh(91, 3, i + 1), message: t },
        }),
      );
    }
    expect(answers.map((a) => a.command_status)).toEqual([0, 0, 0]);
    const id = answers[0].message_id as string;
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    expect(answers.map((a) => a.message_id)).toEqual([id, id, id]);
    const m = await row(id);
    expect(m.body).toBe(texts.join(""));
    expect(m.segments).toBe(3);
    const receipt = await receiptOf(c, id);
    expect(parseReceiptText(receipt.short_message.message)?.id).toBe(id);

    // Part 1 without a receipt: none is owed, whatever the later parts ask.
    const quiet = [];
    for (const [i, t] of texts.entries()) {
      quiet.push(
        await c.submit({
          source_addr: code,
          destination_addr: "5511988885003",
          data_coding: 0,
          registered_delivery: i === 0 ? 0 : 1,
          short_message: { udh: concatUdh(92, 3, i + 1), message: t },
        }),
      );
    }
    const [owed] = await query<{ registered_delivery: boolean }>("SELECT registered_delivery FROM smpp_messages WHERE message_id = $1", [quiet[2].message_id]);
    expect(owed.registered_delivery).toBe(false);
    await c.close();
  });

  it("data codings: 1 (IA5, read as Latin-1 octets) keeps ç, 0 reads GSM 03.38, 3 and 8 decode; binary and unknown codings answer ESME_RINVDCS", async () => {
    const c = await transceiver();
    const cases: Array<[number, Buffer | string, string]> = [
      [1, Buffer.from("Promoção: ç", "latin1"), "Promoção: ç"],
      [0, smpp.gsmCoder.encode("Ça va {ok} €", 0), "Ça va {ok} €"], // 0x09 is Ç (3GPP TS 23.038)
      [3, Buffer.from("Ação é já", "latin1"), "Ação é já"],
      [8, "你好 😀 ç", "你好 😀 ç"],
    ];
    for (const [i, [data_coding, short_message, stored]] of cases.entries()) {
      const r = await c.submit({ source_addr: code, destination_addr: `55119888860${i}0`, data_coding, short_message });
      expect(r.command_status, `data_coding ${data_coding}`).toBe(STATUS.ESME_ROK);
      expect((await row(r.message_id)).body, `data_coding ${data_coding}`).toBe(stored);
    }
    for (const data_coding of [2, 4, 9, 0x0b, 0xf4]) {
      const r = await c.submit({ source_addr: code, destination_addr: "5511988886100", data_coding, short_message: Buffer.from("abc") });
      expect(r.command_status, `data_coding ${data_coding}`).toBe(STATUS.ESME_RINVDCS);
    }
    // GSM 03.38 has no octet above 0x7F.
    expect((await c.submit({ source_addr: code, destination_addr: "5511988886100", data_coding: 0, short_message: Buffer.from([0x61, 0xe7]) })).command_status).toBe(
      STATUS.ESME_RINVDCS,
    );
    expect(await byRecipient("+5511988886100")).toHaveLength(0);
    await c.close();
  });

  it("query_sm answers the state of a message of the account; an unknown id ESME_RQUERYFAIL, a malformed one ESME_RINVMSGID", async () => {
    const c = await transceiver();
    const resp = await c.submit({ source_addr: code, destination_addr: "5511988887001", short_message: "consulta" });
    const id = resp.message_id as string;
    await untilFinal(id);
    const q = await c.request("query_sm", { message_id: id, source_addr: code });
    expect(q.command).toBe("query_sm_resp");
    expect(q.command_status).toBe(STATUS.ESME_ROK);
    expect(q.message_id).toBe(id);
    expect(q.message_state).toBe(STATE[simulatedOutcome(id)]);
    expect(q.final_date).toBeInstanceOf(Date);

    const scheduled = await c.submit({ source_addr: code, destination_addr: "5511988887002", schedule_delivery_time: inAnHour(), short_message: "depois" });
    expect((await row(scheduled.message_id)).status).toBe("scheduled");
    const enroute = await c.request("query_sm", { message_id: scheduled.message_id });
    expect(enroute.message_state).toBe(1); // ENROUTE
    expect(enroute.final_date).toBe("");

    expect((await c.request("query_sm", { message_id: "0b1c2d3e-4f50-6172-8394-a5b6c7d8e9f0" })).command_status).toBe(STATUS.ESME_RQUERYFAIL);
    expect((await c.request("query_sm", { message_id: "part-1" })).command_status).toBe(STATUS.ESME_RINVMSGID);
    // Another account's message is not found.
    const other = await registerPerson("smppquery-other");
    const otherToken = (await login(other.email, other.password)).token;
    await setAccount(other.accountId, { balance: 1000 });
    const theirs = await api("/api/sms/messages", { token: otherToken, body: { to: "+5511988887003", body: "deles" } });
    expect(theirs.status, JSON.stringify(theirs.body)).toBe(200);
    expect((await c.request("query_sm", { message_id: theirs.body.data[0].id })).command_status).toBe(STATUS.ESME_RQUERYFAIL);
    await c.close();
  });

  it("cancel_sm cancels a scheduled message (refunded, receipt stat DELETED); a sent one or a second cancel answers ESME_RCANCELFAIL", async () => {
    const c = await transceiver(money.user);
    const before = await balance();
    const r = await c.submit({ source_addr: money.code, destination_addr: "5511988888001", registered_delivery: 1, schedule_delivery_time: inAnHour(), short_message: "cancelar" });
    expect(r.command_status).toBe(STATUS.ESME_ROK);
    const id = r.message_id as string;
    expect((await row(id)).status).toBe("scheduled");
    expect(await balance()).toBeLessThan(before);

    const cancel = await c.request("cancel_sm", { message_id: id, source_addr: money.code, destination_addr: "5511988888001" });
    expect(cancel.command).toBe("cancel_sm_resp");
    expect(cancel.command_status).toBe(STATUS.ESME_ROK);
    expect(await row(id)).toMatchObject({ status: "failed", error_code: "canceled", error_message: "errors.MESSAGE_CANCELED" });
    expect(await balance()).toBe(before);
    expect((await c.request("query_sm", { message_id: id })).message_state).toBe(4); // DELETED
    const receipt = await receiptOf(c, id, 25_000);
    expect(parseReceiptText(receipt.short_message.message)?.stat).toBe("DELETED");
    expect((await c.request("cancel_sm", { message_id: id })).command_status).toBe(STATUS.ESME_RCANCELFAIL);

    const sent = await c.submit({ source_addr: money.code, destination_addr: "5511988888002", short_message: "ja foi" });
    await untilFinal(sent.message_id);
    const status = (await row(sent.message_id)).status;
    expect((await c.request("cancel_sm", { message_id: sent.message_id })).command_status).toBe(STATUS.ESME_RCANCELFAIL);
    expect((await row(sent.message_id)).status).toBe(status);
    await c.close();
  });

  it("replace_sm replaces a scheduled message's text, read in its submit's data_coding, and its price; one no longer scheduled answers ESME_RREPLACEFAIL", async () => {
    const c = await transceiver(money.user);
    const r = await c.submit({
      source_addr: money.code,
      destination_addr: "5511988889001",
      data_coding: 3,
      schedule_delivery_time: inAnHour(),
      short_message: Buffer.from("Oi", "latin1"),
    });
    const id = r.message_id as string;
    const first = await row(id);
    const perSegment = Number(first.price) / first.segments;
    const before = await balance();
    const text = "Nova versão, ação já! ".repeat(7); // not GSM-7: UCS-2, 154 units -> 3 parts
    const rep = await c.request("replace_sm", { message_id: id, source_addr: money.code, registered_delivery: 0, short_message: Buffer.from(text, "latin1") });
    expect(rep.command).toBe("replace_sm_resp");
    expect(rep.command_status).toBe(STATUS.ESME_ROK);
    const after = await row(id);
    expect(after).toMatchObject({ body: text, segments: 3, coding: "UCS2", status: "scheduled" });
    expect(Number(after.price)).toBe(3 * perSegment);
    expect(before - (await balance())).toBe(2 * perSegment);

    expect((await c.request("cancel_sm", { message_id: id })).command_status).toBe(STATUS.ESME_ROK);
    expect((await c.request("replace_sm", { message_id: id, short_message: Buffer.from("tarde", "latin1") })).command_status).toBe(STATUS.ESME_RREPLACEFAIL);
    expect((await row(id)).body).toBe(text);
    await c.close();
  });

  it("cancel_sm without message_id cancels every scheduled message of the user from source_addr to destination_addr, and only those", async () => {
    const c = await transceiver(money.user);
    const before = await balance();
    const sched = (dest: string, text: string) => c.submit({ source_addr: money.code, destination_addr: dest, schedule_delivery_time: inAnHour(), short_message: text });
    const pair = [await sched("5511988888101", "um"), await sched("5511988888101", "dois")].map((r) => r.message_id as string);
    const other = (await sched("5511988888102", "outro")).message_id as string;
    expect(await balance()).toBeLessThan(before);

    const cancel = await c.request("cancel_sm", { message_id: "", source_addr: money.code, destination_addr: "5511988888101" });
    expect(cancel.command_status).toBe(STATUS.ESME_ROK);
    for (const id of pair) expect(await row(id)).toMatchObject({ status: "failed", error_code: "canceled" });
    expect((await row(other)).status).toBe("scheduled");
    // Nothing left to cancel for the pair; the other destination is untouched.
    expect((await c.request("cancel_sm", { message_id: "", source_addr: money.code, destination_addr: "5511988888101" })).command_status).toBe(STATUS.ESME_RCANCELFAIL);
    expect((await c.request("cancel_sm", { message_id: other })).command_status).toBe(STATUS.ESME_ROK);
    expect(await balance()).toBe(before);
    await c.close();
  });

  it("replace_sm with schedule_delivery_time moves the scheduled message; a time in the past answers ESME_RINVSCHED and changes nothing", async () => {
    const c = await transceiver(money.user);
    const r = await c.submit({ source_addr: money.code, destination_addr: "5511988889101", schedule_delivery_time: inAnHour(), short_message: "primeiro" });
    const id = r.message_id as string;
    const first = await row(id);
    const later = new Date(Date.now() + 3 * 3_600_000);
    const moved = await c.request("replace_sm", { message_id: id, source_addr: money.code, schedule_delivery_time: later, short_message: Buffer.from("segundo", "latin1") });
    expect(moved.command_status).toBe(STATUS.ESME_ROK);
    const after = await row(id);
    expect(after.body).toBe("segundo");
    expect(Math.abs(new Date(after.scheduled_at).getTime() - later.getTime())).toBeLessThan(1000);
    expect(new Date(after.scheduled_at).getTime()).toBeGreaterThan(new Date(first.scheduled_at).getTime());

    const past = await c.request("replace_sm", {
      message_id: id,
      source_addr: money.code,
      schedule_delivery_time: new Date(Date.now() - 3_600_000),
      short_message: Buffer.from("terceiro", "latin1"),
    });
    expect(past.command_status).toBe(STATUS.ESME_RINVSCHED);
    expect(await row(id)).toMatchObject({ body: "segundo", status: "scheduled" });
    // Without a time it keeps the one it has.
    expect((await c.request("replace_sm", { message_id: id, short_message: Buffer.from("quarto", "latin1") })).command_status).toBe(STATUS.ESME_ROK);
    expect(new Date((await row(id)).scheduled_at).getTime()).toBe(new Date(after.scheduled_at).getTime());
    expect((await c.request("cancel_sm", { message_id: id })).command_status).toBe(STATUS.ESME_ROK);
    await c.close();
  });

  it("receipts are shared in turn among the user's receiver sessions, not all sent to the first", { timeout: 180_000 }, async () => {
    const u = await createUser(token, { system_id: `rr${tag}`, route: "T1", tps: 50 });
    const first = await transceiver({ system_id: u.data.system_id, password: u.password });
    const second = await transceiver({ system_id: u.data.system_id, password: u.password });
    // One receipt at a time (each its own pass of the pump): they still alternate between the sessions.
    const ids: string[] = [];
    const got = () => [first, second].map((c) => c.delivered.filter((p) => ids.includes(p.receipted_message_id)).length);
    for (let i = 0; i < 4; i++) {
      const r = await first.submit({ source_addr: code, destination_addr: `551198888${String(7100 + i)}`, registered_delivery: 1, short_message: `recibo ${i}` });
      expect(r.command_status).toBe(STATUS.ESME_ROK);
      ids.push(r.message_id);
      // Bounded per receipt; a whole suite on two cores can keep one waiting past 20 s.
      await expect.poll(() => got().reduce((a, b) => a + b, 0), { timeout: 40_000, interval: 100 }).toBe(ids.length);
    }
    expect(got()).toEqual([2, 2]);
    await Promise.all([first.close(), second.close()]);
  });

  it("an ESME that never acknowledges its receipts does not hold up another ESME's receipts", async () => {
    const silentUser = await createUser(token, { system_id: `mute${tag}`, route: "T1", tps: 50 });
    const silent = await transceiver({ system_id: silentUser.data.system_id, password: silentUser.password });
    // This session takes deliver_sm and never answers (each of its receipts waits out its 10 s).
    silent.session.removeAllListeners("deliver_sm");
    let unanswered = 0;
    silent.session.on("deliver_sm", () => unanswered++);
    // Keep receipts for it flowing the whole time, so a pass that waited for acknowledgements would always be waiting.
    let n = 0;
    const feed = setInterval(
      () =>
        void silent.submit({ source_addr: code, destination_addr: `5511988887${String(300 + (n++ % 99)).padStart(3, "0")}`, registered_delivery: 1, short_message: `mudo ${n}` }),
      500,
    );
    try {
      await expect.poll(() => unanswered, { timeout: 60_000, interval: 100 }).toBeGreaterThanOrEqual(2);
      const other = await transceiver();
      const r = await other.submit({ source_addr: code, destination_addr: "5511988887400", registered_delivery: 1, short_message: "sem espera" });
      expect(r.command_status).toBe(STATUS.ESME_ROK);
      // From the moment the message is final (what the receipt reports), its receipt comes within the
      // pump's next passes, not after the silent session's 10 s acknowledgement timeouts.
      await expect.poll(async () => FINAL.includes((await row(r.message_id)).status), { timeout: 60_000, interval: 50 }).toBe(true);
      const final = Date.now();
      await other.waitDeliver((p) => p.receipted_message_id === r.message_id, 60_000);
      expect(Date.now() - final).toBeLessThan(5_000);
      await other.close();
    } finally {
      clearInterval(feed);
      await silent.close();
    }
  });

  it("a submit whose receipt request cannot be recorded is refused whole: no message, no charge", async () => {
    const u = await createUser(token, { system_id: `tx${tag}`, route: "T1", tps: 50 });
    const c = await transceiver({ system_id: u.data.system_id, password: u.password });
    const before = Number((await query<{ balance: string }>("SELECT balance FROM account_balances WHERE account_id = $1", [accountId]))[0].balance);
    // Fault injection in the database: smpp_messages refuses this user's rows (and only this user's).
    const fn = `fail_smpp_${tag}`;
    await query(
      `CREATE FUNCTION ${fn}() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN IF NEW.smpp_user_id = '${u.data.id}' THEN RAISE EXCEPTION 'injected'; END IF; RETURN NEW; END $$`,
    );
    await query(`CREATE TRIGGER ${fn} BEFORE INSERT ON smpp_messages FOR EACH ROW EXECUTE FUNCTION ${fn}()`);
    try {
      const r = await c.submit({ source_addr: code, destination_addr: "5511988887200", registered_delivery: 1, short_message: "nada escrito" });
      expect(r.command_status).toBe(STATUS.ESME_RSYSERR);
      expect(await byRecipient("+5511988887200")).toEqual([]);
      expect(Number((await query<{ balance: string }>("SELECT balance FROM account_balances WHERE account_id = $1", [accountId]))[0].balance)).toBe(before);
    } finally {
      await query(`DROP TRIGGER ${fn} ON smpp_messages`);
      await query(`DROP FUNCTION ${fn}()`);
    }
    // The same submit once the fault is gone: one message with its receipt request.
    const ok = await c.submit({ source_addr: code, destination_addr: "5511988887200", registered_delivery: 1, short_message: "agora sim" });
    expect(ok.command_status).toBe(STATUS.ESME_ROK);
    expect(await query("SELECT registered_delivery FROM smpp_messages WHERE message_id = $1", [ok.message_id])).toEqual([{ registered_delivery: true }]);
    await c.close();
  });

  it("data_sm is accepted like submit_sm (data_sm_resp with the message id) and its receipt comes back", async () => {
    const c = await transceiver();
    const resp = await c.request("data_sm", {
      source_addr: code,
      destination_addr: "5511988889101",
      registered_delivery: 1,
      data_coding: 3,
      message_payload: Buffer.from("Olá via data_sm", "latin1"),
    });
    expect(resp.command).toBe("data_sm_resp");
    expect(resp.command_status).toBe(STATUS.ESME_ROK);
    const id = resp.message_id as string;
    expect(await row(id)).toMatchObject({ body: "Olá via data_sm", sender: code, recipient: "+5511988889101", account_id: accountId });
    const receipt = await receiptOf(c, id);
    // "Olá…" is not GSM-7: a UCS-2 receipt, in message_payload.
    expect(parseReceiptText(receipt.message_payload.message)?.stat).toBe(STAT[simulatedOutcome(id)]);
    await c.close();
  });

  it("an unknown command id and an unsupported request are answered generic_nack ESME_RINVCMDID; the session goes on", async () => {
    const c = await transceiver();
    const unknown = Buffer.alloc(16);
    unknown.writeUInt32BE(16, 0);
    unknown.writeUInt32BE(0x00000999, 4);
    unknown.writeUInt32BE(0, 8);
    unknown.writeUInt32BE(0x7ff00001, 12);
    c.write(unknown);
    const nack = await c.waitPdu((p) => p.sequence_number === 0x7ff00001);
    expect(nack.command).toBe("generic_nack");
    expect(nack.command_status).toBe(STATUS.ESME_RINVCMDID);

    const multi = await c.request("submit_multi", {
      source_addr: code,
      dest_address: [{ dest_addr_ton: 1, dest_addr_npi: 1, destination_addr: "5511988889201" }],
      short_message: "multi",
    });
    expect(multi.command).toBe("generic_nack");
    expect(multi.command_status).toBe(STATUS.ESME_RINVCMDID);
    expect((await c.request("enquire_link", {})).command_status).toBe(STATUS.ESME_ROK);
    await c.close();
  });

  it("a PDU the server cannot read (a length past the maximum) closes the session instead of leaving it open and deaf", async () => {
    const c = await transceiver();
    const huge = Buffer.alloc(16);
    huge.writeUInt32BE(1 << 20, 0);
    huge.writeUInt32BE(0x00000004, 4);
    c.write(huge);
    const closed = await Promise.race([c.closed.then(() => true), new Promise<boolean>((r) => setTimeout(() => r(false), 5_000))]);
    expect(closed).toBe(true);
    // The ESME binds again on a new connection and goes on.
    const again = await transceiver();
    expect((await again.request("enquire_link", {})).command_status).toBe(STATUS.ESME_ROK);
    await again.close();
  });
});
