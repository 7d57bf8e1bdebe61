/**
 * GET /api/whatsapp/messages (api/whatsapp/history.ts listWhatsappMessages; issue 16): the
 * account's WhatsApp messages of both directions, newest first, a keyset page {data, next_cursor},
 * filtered by São Paulo days (the SMS history's rules: at most 31), status and recipient; a forged
 * cursor is a 422; another account sees none of them; a role without the WhatsApp history is refused.
 * The messages go through the real pipeline and the simulator's loopback Graph peer.
 */
import { beforeAll, describe, expect, inject, it } from "vitest";
import { simulatedAppSecret } from "../../api/simulator/whatsapp-cloud";
import { api, login, registerPerson } from "../support/api";
import { addMember, giveOmni, setAccount } from "../support/factories";

/** A São Paulo day, YYYY-MM-DD. */
const saoPauloDay = (at = new Date()) => new Intl.DateTimeFormat("en-CA", { timeZone: "America/Sao_Paulo" }).format(at);
const digits = (n: number) => Array.from({ length: n }, () => Math.floor(Math.random() * 10)).join("");
let token: string;
let accountId: string;
let numberId: string;
let phoneNumberId: string;
let wabaId: string;
const delivered = `+55119${digits(4)}2222`;
const undeliverable = `+55119${digits(4)}0001`;
const contact = `+55119${digits(4)}3333`;
const sent: Record<string, string> = {};

/** `read()` again until `done` says its answer is the awaited one (beforeAll has no expect.poll); fails after `ms`. */
async function eventually<T>(read: () => Promise<T>, done: (v: T) => boolean, ms = 20_000): Promise<T> {
  const until = Date.now() + ms;
  for (;;) {
    const v = await read();
    if (done(v)) return v;
    if (Date.now() > until) throw new Error(`still ${JSON.stringify(v)} after ${ms} ms`);
    await new Promise((r) => setTimeout(r, 150));
  }
}

const list = async (query: Record<string, string> = {}, t = token) => api(`/api/whatsapp/messages?${new URLSearchParams(query).toString()}`, { token: t, lang: "en" });

beforeAll(async () => {
  const p = await registerPerson("wa-history");
  accountId = p.accountId;
  await giveOmni(accountId);
  await setAccount(accountId, { balance: 10_000 });
  token = (await login(p.email, p.password)).token;
  phoneNumberId = `1${digits(14)}`;
  wabaId = `2${digits(14)}`;
  const connected = await api("/api/whatsapp/numbers", {
    token,
    body: { phone_number_id: phoneNumberId, waba_id: wabaId, access_token: `EAAG${digits(20)}`, app_secret: simulatedAppSecret(inject("simulatorApiKey")) },
  });
  expect(connected.status, JSON.stringify(connected.body)).toBe(201);
  numberId = connected.body.data.id;
  const created = await api("/api/whatsapp/templates", {
    token,
    body: { number_id: numberId, name: `aviso_${digits(6)}`, category: "utility", language: "pt_BR", body: "Olá {{1}}, seu pedido saiu.", body_examples: ["Ana"] },
  });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  await eventually(
    async () => (await api(`/api/whatsapp/templates/${created.body.data.id}`, { token })).body.data.status,
    (s) => s === "approved",
  );
  for (const to of [delivered, undeliverable]) {
    const res = await api("/api/whatsapp/messages", {
      token,
      body: { from: numberId, to, type: "template", template: { name: created.body.data.name, language: "pt_BR", variables: ["Ana"] } },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(202);
    sent[to] = res.body.data.id;
  }
  // A contact writes to the number: an inbound message of the account.
  const inbound = await fetch(new URL("/whatsapp/_sim/inbound", inject("simulatorUrl")), {
    method: "POST",
    headers: { Authorization: `Bearer ${inject("simulatorApiKey")}`, "Content-Type": "application/json" },
    body: JSON.stringify({ waba_id: wabaId, phone_number_id: phoneNumberId, from: contact, text: "Oi!" }),
  });
  expect(inbound.status).toBe(202);
  await eventually(
    async () => (await list()).body.data?.length,
    (n) => n === 3,
  );
  // Meta's final words: the peer reads one and fails the other (131026).
  await eventually(
    async () => (await api(`/api/whatsapp/messages/${sent[delivered]}`, { token })).body.data.status,
    (s) => s === "read",
  );
  await eventually(
    async () => (await api(`/api/whatsapp/messages/${sent[undeliverable]}`, { token })).body.data.status,
    (s) => s === "failed",
  );
});

describe("GET /api/whatsapp/messages", () => {
  it("lists today's messages of both directions, newest first, as documented", async () => {
    const res = await list();
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(["data", "next_cursor"]);
    expect(res.body.next_cursor).toBeNull();
    const rows = res.body.data as Array<Record<string, unknown>>;
    const byTo = (to: string) => rows.find((r) => r.to === to);
    expect(rows.map((r) => r.to).sort()).toEqual([phoneNumberId, undeliverable, delivered].sort());
    // The contact's message keeps Meta's time (seconds): it may sort before the sends of the same second.
    expect(byTo(phoneNumberId)).toMatchObject({ direction: "inbound", from: contact, body: "Oi!", status: "received", price: 0 });
    expect(byTo(undeliverable)).toMatchObject({
      id: sent[undeliverable],
      direction: "outbound",
      from: phoneNumberId,
      type: "template",
      status: "failed",
      error_code: "131026",
      error_message: "Message undeliverable",
    });
    expect(byTo(delivered)).toMatchObject({
      id: sent[delivered],
      direction: "outbound",
      body: "Olá Ana, seu pedido saiu.",
      status: "read",
      price: 6,
      currency: "BRL",
      error_code: null,
    });
    expect(byTo(delivered)?.read_at).toEqual(expect.any(String));
    // The two sends, newest first.
    expect(rows.filter((r) => r.direction === "outbound").map((r) => r.id)).toEqual([sent[undeliverable], sent[delivered]]);
    const times = rows.map((r) => Date.parse(String(r.created_at)));
    expect([...times].sort((a, b) => b - a)).toEqual(times);
  });

  it("pages by keyset: limit 1 and next_cursor walk the same rows; order=asc walks them oldest first", async () => {
    const all = (await list()).body.data.map((r: { id: string }) => r.id);
    const walk = async (query: Record<string, string>) => {
      const seen: string[] = [];
      let cursor: string | null = null;
      do {
        const res = await list({ ...query, limit: "1", ...(cursor ? { cursor } : {}) });
        expect(res.status, JSON.stringify(res.body)).toBe(200);
        seen.push(...res.body.data.map((r: { id: string }) => r.id));
        cursor = res.body.next_cursor;
      } while (cursor);
      return seen;
    };
    expect(await walk({})).toEqual(all);
    expect(await walk({ order: "asc" })).toEqual([...all].reverse());
  });

  it("filters by status, recipient (any format, normalized), sender and São Paulo days", async () => {
    expect((await list({ status: "failed" })).body.data.map((r: { id: string }) => r.id)).toEqual([sent[undeliverable]]);
    expect((await list({ status: "read" })).body.data.map((r: { id: string }) => r.id)).toEqual([sent[delivered]]);
    expect((await list({ to: delivered.slice(3) })).body.data.map((r: { id: string }) => r.id)).toEqual([sent[delivered]]);
    expect((await list({ from: contact })).body.data.map((r: { direction: string }) => r.direction)).toEqual(["inbound"]);
    const today = saoPauloDay();
    expect((await list({ "created_at[gte]": today, "created_at[lte]": today })).body.data).toHaveLength(3);
    const yesterday = new Date(Date.parse(`${today}T12:00:00Z`) - 86_400_000).toISOString().slice(0, 10);
    expect((await list({ "created_at[gte]": yesterday, "created_at[lte]": yesterday })).body.data).toEqual([]);
  });

  it("refuses bad filters and a forged cursor with 422 naming the field, translated", async () => {
    const wide = await list({ "created_at[gte]": "2026-01-01", "created_at[lte]": "2026-03-01" });
    expect(wide.status).toBe(422);
    expect(wide.body.error.fields).toEqual({ "created_at.lte": ["Maximum range of 31 days"] });
    const status = await list({ status: "lost" });
    expect(status.status).toBe(422);
    expect(Object.keys(status.body.error.fields)).toEqual(["status"]);
    for (const cursor of ["nonsense", Buffer.from(JSON.stringify(["2026-01-01", "x"])).toString("base64url")]) {
      const forged = await list({ cursor });
      expect(forged.status, cursor).toBe(422);
      expect(Object.keys(forged.body.error.fields)).toEqual(["cursor"]);
    }
  });

  it("another account sees none of them; a role without the WhatsApp history is refused", async () => {
    const other = await registerPerson("wa-history-other");
    const otherToken = (await login(other.email, other.password)).token;
    const theirs = await list({}, otherToken);
    expect(theirs.status).toBe(200);
    expect(theirs.body.data).toEqual([]);
    expect((await api(`/api/whatsapp/messages/${sent[delivered]}`, { token: otherToken })).status).toBe(404);

    // A manager of this account: live chat supervision, not the product's history screens.
    await addMember(accountId, other.userId, { role: "manager" });
    const refused = await api("/api/whatsapp/messages", { token: otherToken, account: accountId });
    expect(refused.status).toBe(403);
    expect(refused.body.error.code).toBe("FORBIDDEN");
  });
});
