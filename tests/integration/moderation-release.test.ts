/**
 * Moderation at the scheduled release (ADR 012): a message scheduled while nothing it contains
 * was under review, released after one of its words went under review, is held for approval
 * exactly like at accept (pending, no outbox row, the simulator never sees it, a hold on the
 * account's review) — while a clean message released in the same sweep, and the same word sent by
 * an account that already has an approval for it, go out. Approval then sends the held one once.
 */
import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, inject, it } from "vitest";
import { api, login, registerPerson, type Person } from "../support/api";
import { query } from "../support/db";
import { dispatchSettled } from "../support/wait";
import { DEMO_PASSWORD } from "../support/web";
import { ago, type Role, setAccount, setMember, setMessages } from "../support/factories";

const PRICE = 8; // T1, one segment (api/sms/pricing.ts)
const FINAL = ["delivered", "failed", "unavailable"];
type P = Person & { token: string };

async function person(tag: string, role?: Role): Promise<P> {
  const p = await registerPerson(tag);
  await setAccount(p.accountId, { balance: 1000 });
  if (role) await setMember(p.accountId, p.userId, { role });
  return { ...p, token: (await login(p.email, p.password)).token };
}
const balanceOf = async (accountId: string) => Number((await query<{ balance: string }>("SELECT balance FROM account_balances WHERE account_id = $1", [accountId]))[0].balance);
const row = async (id: string) => (await query<Record<string, any>>("SELECT * FROM messages WHERE id = $1", [id]))[0];
const submits = async (id: string) => {
  const res = await fetch(new URL(`/v1/stats?reference=${id}`, inject("simulatorUrl")), { headers: { Authorization: `Bearer ${inject("simulatorApiKey")}` } });
  return ((await res.json()) as { accepted: number }).accepted;
};
async function until<T>(what: string, fn: () => Promise<T | undefined | false>, ms = 20_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 150));
  }
}
let seq = Math.floor(Math.random() * 9_000_000);
const nextNumber = () => `11 9${String(30000000 + seq++)}`;

async function schedule(p: P, body: string) {
  const res = await api("/api/sms/messages", { token: p.token, body: { to: [nextNumber()], body, scheduled_at: new Date(Date.now() + 3_600_000).toISOString() } });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  expect(res.body.data[0].status).toBe("scheduled");
  return res.body.data[0].id as string;
}

let staff: string;
beforeAll(async () => {
  staff = (await login("staff@demo.example", DEMO_PASSWORD)).token;
});

describe("scheduled messages are checked by moderation when released", () => {
  it("a word put under review after scheduling holds the message at release; approval sends it once", async () => {
    const word = `brindex${randomUUID().slice(0, 6)}`;
    const p = await person("modsched");
    const allowed = await person("modschedok", "admin");

    // Scheduled while nothing was under review: accepted as scheduled, charged once.
    const risky = await schedule(p, `Seu ${word.toUpperCase()} está reservado, responda SIM`);
    const clean = await schedule(p, "Lembrete: sua consulta é amanhã");
    const other = await schedule(allowed, `Ganhe um ${word} na loja`);
    expect(await balanceOf(p.accountId)).toBe(1000 - 2 * PRICE);

    // Then the word goes under review; the second account asks ahead and is approved.
    const w = await api("/api/words", { token: staff, body: { value: word, note: "golpe do brinde" } });
    expect(w.status, JSON.stringify(w.body)).toBe(201);
    const ask = await api("/api/words/approvals", { token: allowed.token, body: { value: word, note: "brinde real" } });
    expect(ask.status, JSON.stringify(ask.body)).toBe(201);
    expect((await api(`/api/words/approvals/${ask.body.data.id}/approve`, { token: staff, method: "POST" })).status).toBe(200);

    // Their time comes: the worker's release sweep takes all three in one batch.
    await setMessages([risky, clean, other], { scheduledAt: ago("1 second") });
    await until("the release", async () => (await query("SELECT 1 FROM messages WHERE id = ANY($1::uuid[]) AND status = 'scheduled'", [[risky, clean, other]])).length === 0);

    for (const id of [clean, other]) await until(`${id} final`, async () => FINAL.includes((await row(id)).status));
    // Signal: the release published what it released and the dispatcher consumed every entry of
    // the three (no outbox row or stream entry left), so nothing in flight could submit the held
    // one; the sweep republishes only queued/sending messages, never pending.
    await dispatchSettled([risky, clean, other]);
    const held = await row(risky);
    expect(held).toMatchObject({ status: "pending", error_code: "moderation", error_message: "moderation.held", queued_at: null, price: String(PRICE) });
    expect(await submits(risky)).toBe(0);
    expect(await query("SELECT 1 FROM outbox WHERE payload->>'message_id' = $1", [risky])).toEqual([]);
    expect((await query<{ status: string }>("SELECT status FROM message_events WHERE message_id = $1 ORDER BY id", [risky])).map((e) => e.status)).toEqual([
      "scheduled",
      "pending",
    ]);
    const holds = await query<{ state: string; status: string; value: string; account_id: string }>(
      `SELECT h.state, a.status, a.value, a.account_id FROM moderation_holds h JOIN moderation_approvals a ON a.id = h.approval_id WHERE h.message_id = $1`,
      [risky],
    );
    expect(holds).toEqual([{ state: "held", status: "pending", value: word, account_id: p.accountId }]);
    expect(await query("SELECT 1 FROM moderation_holds WHERE message_id = ANY($1::uuid[])", [[clean, other]])).toEqual([]);
    expect(await submits(clean)).toBe(1);
    expect(await submits(other)).toBe(1);
    expect(await balanceOf(p.accountId)).toBe(1000 - 2 * PRICE); // nothing charged or refunded at release

    // Staff approve the account's review: the held message is sent, once.
    const review = (await api("/api/words/approvals?status=pending", { token: staff })).body.data.find(
      (a: { account_id: string; value: string }) => a.account_id === p.accountId && a.value === word,
    );
    expect(review).toMatchObject({ held: 1 });
    const ok = await api(`/api/words/approvals/${review.id}/approve`, { token: staff, method: "POST" });
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    expect(ok.body.released).toBe(1);
    await until("the approved message final", async () => FINAL.includes((await row(risky)).status));
    expect(await submits(risky)).toBe(1);
    expect(await balanceOf(p.accountId)).toBe(1000 - 2 * PRICE);
  });
});
