/**
 * Opt-outs, the deny list ("blacklist") and the opt-out keyword settings through the API, and
 * their effect at accept time: a send to [opted out, denied, normal] writes three messages
 * (optout / rejected / queued), one outbox row, debits only the normal one, and the normal one
 * reaches the simulator's outcome. Tenancy and permission are checked by their effects.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { simulatedOutcome } from "../../api/simulator/outcome";
import { api, login, registerPerson, type Person } from "../support/api";
import { query } from "../support/db";
import { setAccount, setMember } from "../support/factories";

const DEFAULT_T1 = 8; // centavos per segment (api/sms/pricing.ts)
const FINAL = ["delivered", "failed", "unavailable"];

type Who = Person & { token: string };

async function person(tag: string, balance = 0): Promise<Who> {
  const p = await registerPerson(tag);
  await setAccount(p.accountId, { balance });
  return { ...p, token: (await login(p.email, p.password)).token };
}

async function balanceOf(accountId: string) {
  const [row] = await query<{ balance: string }>("SELECT balance FROM account_balances WHERE account_id = $1", [accountId]);
  return Number(row.balance);
}

/** The account's keyword rows (optout_keywords) as the two lists, in their order. */
async function storedKeywords(accountId: string) {
  const rows = await query<{ keyword: string; action: string }>("SELECT keyword, action FROM optout_keywords WHERE account_id = $1 ORDER BY action, position", [accountId]);
  return { keywords: rows.filter((r) => r.action === "optout").map((r) => r.keyword), resume_keywords: rows.filter((r) => r.action === "resume").map((r) => r.keyword) };
}

let seq = Math.floor(Math.random() * 9_000_000);
/** A fresh valid mobile number as a person types it, and its E.164. */
function nextNumber() {
  const national = `11 9${String(60000000 + seq++)}`;
  return { typed: national, e164: `+55${national.replace(/\D/g, "")}` };
}

async function waitFinal(token: string, id: string, ms = 20_000) {
  const until = Date.now() + ms;
  for (;;) {
    const res = await api(`/api/sms/messages/${id}`, { token });
    if (res.status === 200 && FINAL.includes(res.body.data.status)) return res.body.data;
    if (Date.now() > until) throw new Error(`message ${id} not final: ${JSON.stringify(res.body)}`);
    await new Promise((r) => setTimeout(r, 150));
  }
}

let owner: Who;
beforeAll(async () => {
  owner = await person("optouts", 1_000);
});

describe("opt-outs API", () => {
  it("adds (normalized to E.164), lists, refuses invalid numbers, is idempotent, and removes", async () => {
    const n = nextNumber();
    const added = await api("/api/optouts", { token: owner.token, body: { recipient: `(${n.typed.slice(0, 2)}) ${n.typed.slice(3)}` } });
    // A new entry: 201 and its URL in Location, which answers the same entry.
    expect(added.status, JSON.stringify(added.body)).toBe(201);
    expect(added.body).toMatchObject({ created: true, data: { channel: "sms", recipient: n.e164, source: "api", keyword: null } });
    expect(added.headers.get("location")).toBe(`/api/optouts/${added.body.data.id}`);
    expect((await api(added.headers.get("location")!, { token: owner.token })).body).toEqual({ data: added.body.data });
    const rows = await query("SELECT account_id, channel, recipient, source FROM optouts WHERE id = $1", [added.body.data.id]);
    expect(rows).toEqual([{ account_id: owner.accountId, channel: "sms", recipient: n.e164, source: "api" }]);

    // The same number in another format is the same opt-out.
    const again = await api("/api/optouts", { token: owner.token, body: { recipient: n.e164 } });
    expect(again.status).toBe(200);
    expect(again.headers.get("location")).toBeNull();
    expect(again.body).toMatchObject({ created: false, data: { id: added.body.data.id } });
    expect(await query("SELECT id FROM optouts WHERE account_id = $1 AND recipient = $2", [owner.accountId, n.e164])).toHaveLength(1);

    const invalid = await api("/api/optouts", { token: owner.token, body: { recipient: "123" } });
    expect(invalid.status).toBe(422);
    expect(invalid.body.error).toMatchObject({ code: "VALIDATION", fields: { recipient: ["Número de telefone inválido"] } });
    const missing = await api("/api/optouts", { token: owner.token, body: {} });
    expect(missing.status).toBe(422);
    expect(Object.keys(missing.body.error.fields)).toEqual(["to"]);
    // `to` is the documented name of the number (`recipient` its deprecated alias), in and out.
    const m = nextNumber();
    const byTo = await api("/api/optouts", { token: owner.token, body: { to: m.typed, channel: "whatsapp" } });
    expect(byTo.status, JSON.stringify(byTo.body)).toBe(201);
    expect(byTo.body.data).toMatchObject({ to: m.e164, recipient: m.e164, channel: "whatsapp" });
    expect(byTo.body.data.to_formatted).toBe(byTo.body.data.recipient_formatted);
    const badTo = await api("/api/optouts", { token: owner.token, body: { to: "123" }, lang: "en" });
    expect(badTo.body.error.fields).toEqual({ to: ["Invalid phone number"] });
    const deny = await api("/api/blacklist", { token: owner.token, body: { to: m.typed } });
    expect(deny.status).toBe(201);
    expect(deny.body.data).toMatchObject({ to: m.e164, recipient: m.e164 });
    const moved = await api(`/api/blacklist/${deny.body.data.id}`, { token: owner.token, method: "PUT", body: { to: nextNumber().typed, reason: "x" } });
    expect(moved.status).toBe(200);
    expect(moved.body.data.to).not.toBe(m.e164);

    const list = await api("/api/optouts", { token: owner.token });
    expect(list.status).toBe(200);
    expect(list.body).toMatchObject({ page: 1, last_page: 1, next_cursor: null });
    expect(list.body.data.map((o: { recipient: string }) => o.recipient)).toContain(n.e164);
    const filtered = await api(`/api/optouts?q=${encodeURIComponent(n.e164.slice(-8))}`, { token: owner.token });
    expect(filtered.body.data.map((o: { recipient: string }) => o.recipient)).toEqual([n.e164]);

    const removed = await api(`/api/optouts/${added.body.data.id}`, { token: owner.token, method: "DELETE" });
    expect(removed.status).toBe(200);
    expect(await query("SELECT id FROM optouts WHERE id = $1", [added.body.data.id])).toEqual([]);
    expect((await api(`/api/optouts/${added.body.data.id}`, { token: owner.token, method: "DELETE" })).status).toBe(404);
    expect((await api(`/api/optouts/not-a-uuid`, { token: owner.token, method: "DELETE" })).status).toBe(404);
  });

  it("settings: defaults, update (uppercase, repeated words once), and validation", async () => {
    const p = await person("optsettings");
    const defaults = await api("/api/optouts/settings", { token: p.token });
    expect(defaults.status).toBe(200);
    expect(defaults.body.data).toMatchObject({
      keywords: ["SAIR", "PARAR", "CANCELAR", "DESCADASTRAR", "REMOVER", "STOP"],
      resume_keywords: ["VOLTAR", "START"],
    });

    const saved = await api("/api/optouts/settings", {
      token: p.token,
      method: "PUT",
      body: { keywords: ["sair", "Chega", "SAIR", " parar "], resume_keywords: "voltar, quero" },
    });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    expect(saved.body.data).toMatchObject({ keywords: ["SAIR", "CHEGA", "PARAR"], resume_keywords: ["VOLTAR", "QUERO"] });
    expect(await storedKeywords(p.accountId)).toEqual({ keywords: ["SAIR", "CHEGA", "PARAR"], resume_keywords: ["VOLTAR", "QUERO"] });
    expect((await api("/api/optouts/settings", { token: p.token })).body.data.keywords).toEqual(["SAIR", "CHEGA", "PARAR"]);

    const bad = async (body: unknown) => {
      const res = await api("/api/optouts/settings", { token: p.token, method: "PUT", body });
      expect(res.status, JSON.stringify(res.body)).toBe(422);
      return Object.keys(res.body.error.fields ?? {});
    };
    expect(await bad({ keywords: [], resume_keywords: ["VOLTAR"] })).toEqual(["keywords"]);
    expect(await bad({ keywords: Array.from({ length: 21 }, (_, i) => `PALAVRA${i}`), resume_keywords: ["VOLTAR"] })).toEqual(["keywords"]);
    expect(await bad({ keywords: ["SAIR"], resume_keywords: ["Sáir"] })).toEqual(["resume_keywords"]);
    expect(await bad({ keywords: ["SAIR"] })).toEqual(["resume_keywords"]);
    // Nothing of the refused updates was stored.
    expect((await storedKeywords(p.accountId)).keywords).toEqual(["SAIR", "CHEGA", "PARAR"]);
  });
});

describe("deny list API (/api/blacklist)", () => {
  it("adds (normalized, with a reason), lists, refuses invalid numbers, is idempotent, and removes", async () => {
    const n = nextNumber();
    const added = await api("/api/blacklist", { token: owner.token, body: { recipient: n.typed, reason: "Fraude" } });
    expect(added.status, JSON.stringify(added.body)).toBe(201);
    expect(added.headers.get("location")).toBe(`/api/blacklist/${added.body.data.id}`);
    expect((await api(added.headers.get("location")!, { token: owner.token })).body).toEqual({ data: added.body.data });
    expect(added.body).toMatchObject({ created: true, data: { recipient: n.e164, reason: "Fraude" } });
    expect(await query("SELECT account_id, recipient, reason FROM deny_list WHERE id = $1", [added.body.data.id])).toEqual([
      { account_id: owner.accountId, recipient: n.e164, reason: "Fraude" },
    ]);
    const again = await api("/api/blacklist", { token: owner.token, body: { recipient: n.e164 } });
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ created: false, data: { id: added.body.data.id, reason: "Fraude" } });

    const invalid = await api("/api/blacklist", { token: owner.token, body: { recipient: "abc" } });
    expect(invalid.status).toBe(422);
    expect(Object.keys(invalid.body.error.fields)).toEqual(["recipient"]);
    const long = await api("/api/blacklist", { token: owner.token, body: { recipient: nextNumber().typed, reason: "x".repeat(256) } });
    expect(long.status).toBe(422);
    expect(Object.keys(long.body.error.fields)).toEqual(["reason"]);

    const list = await api("/api/blacklist", { token: owner.token });
    expect(list.status).toBe(200);
    expect(list.body.data.map((d: { recipient: string }) => d.recipient)).toContain(n.e164);

    expect((await api(`/api/blacklist/${added.body.data.id}`, { token: owner.token, method: "DELETE" })).status).toBe(200);
    expect(await query("SELECT id FROM deny_list WHERE id = $1", [added.body.data.id])).toEqual([]);
    expect((await api(`/api/blacklist/${added.body.data.id}`, { token: owner.token, method: "DELETE" })).status).toBe(404);
  });

  it("a role without the screens (developer) is refused both lists", async () => {
    const p = await person("optdev");
    await setMember(p.accountId, p.userId, { role: "developer" });
    expect((await api("/api/optouts", { token: p.token })).status).toBe(403);
    expect((await api("/api/blacklist", { token: p.token, body: { recipient: nextNumber().typed } })).status).toBe(403);
    expect((await api("/api/optouts/settings", { token: p.token })).status).toBe(403);
    expect(await query("SELECT id FROM deny_list WHERE account_id = $1", [p.accountId])).toEqual([]);
  });
});

describe("accept with opt-outs and the deny list", () => {
  it("[opted out, denied, normal]: three messages optout/rejected/queued, one outbox row, only the normal one charged", async () => {
    const p = await person("optsend", 1_000);
    const out = nextNumber();
    const denied = nextNumber();
    const normal = nextNumber();
    expect((await api("/api/optouts", { token: p.token, body: { recipient: out.typed } })).status).toBe(201);
    expect((await api("/api/blacklist", { token: p.token, body: { recipient: denied.typed, reason: "Pediu por telefone" } })).status).toBe(201);

    // error_message answers in the caller's language (here English); error_code is the stable code.
    const res = await api("/api/sms/messages", { token: p.token, lang: "en", body: { to: [out.typed, denied.typed, normal.typed], body: "Promocao de hoje" } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toEqual({
      data: [
        {
          id: expect.any(String),
          to: out.e164,
          status: "optout",
          segments: 1,
          coding: "GSM7",
          price: 0,
          error_code: "optout",
          error_message: "The recipient opted out of messages; not sent and not charged",
        },
        {
          id: expect.any(String),
          to: denied.e164,
          status: "rejected",
          segments: 1,
          coding: "GSM7",
          price: 0,
          error_code: "deny_list",
          error_message: "The number is on the account's deny list; not sent and not charged",
        },
        { id: expect.any(String), to: normal.e164, status: "queued", segments: 1, coding: "GSM7", price: DEFAULT_T1 },
      ],
      total_price: DEFAULT_T1,
      currency: "BRL",
      // A send to several numbers is a campaign (ADR 008): its id and counts come with the answer.
      campaign_id: expect.any(String),
      summary: { messages: 3, sendable: 1, optout: 1, rejected: 1, segments: 1 },
    });
    expect(await balanceOf(p.accountId)).toBe(1_000 - DEFAULT_T1);

    const messages = await query<{ id: string; recipient: string; status: string; price: string; error_code: string | null; error_message: string | null; queued_at: Date | null }>(
      "SELECT id, recipient, status, price, error_code, error_message, queued_at FROM messages WHERE account_id = $1 ORDER BY recipient = $2 DESC, recipient = $3 DESC",
      [p.accountId, out.e164, denied.e164],
    );
    expect(messages.map(({ id: _id, queued_at: _q, ...m }) => m)).toEqual(
      [
        { recipient: out.e164, status: "optout", price: "0", error_code: "optout", error_message: "errors.RECIPIENT_OPTED_OUT" },
        { recipient: denied.e164, status: "rejected", price: "0", error_code: "deny_list", error_message: "errors.RECIPIENT_DENIED" },
        { recipient: normal.e164, status: "queued", price: String(DEFAULT_T1), error_code: null, error_message: null },
      ].map((m, i) => (i < 2 ? m : { ...m, status: expect.any(String) })),
    );
    const outbox = await query<{ message_id: string }>("SELECT payload->>'message_id' AS message_id FROM outbox WHERE payload->>'message_id' = ANY($1::text[])", [
      messages.map((m) => m.id),
    ]);
    const normalId = res.body.data[2].id;
    expect(outbox).toEqual([{ message_id: normalId }]);
    const events = await query<{ message_id: string; status: string }>(
      "SELECT message_id::text, status FROM message_events WHERE account_id = $1 AND source = 'system' AND status IN ('optout','rejected','queued') ORDER BY status",
      [p.accountId],
    );
    expect(events).toEqual([
      { message_id: res.body.data[0].id, status: "optout" },
      { message_id: normalId, status: "queued" },
      { message_id: res.body.data[1].id, status: "rejected" },
    ]);

    // The normal one reaches the simulator's outcome; the blocked ones never move.
    const final = await waitFinal(p.token, normalId);
    expect(final.status).toBe(simulatedOutcome(normalId));
    // The same message read in Spanish: the reason in Spanish; the history row too (the row itself keeps the locale key).
    const blockedNow = await api(`/api/sms/messages/${res.body.data[0].id}`, { token: p.token, lang: "es" });
    expect(blockedNow.body.data).toMatchObject({
      status: "optout",
      price: 0,
      error_code: "optout",
      error_message: "El destinatario pidió no recibir mensajes (baja); no enviado y sin cargo",
    });
    const historyRow = await api(`/api/sms/messages?id=${res.body.data[1].id}`, { token: p.token, lang: "es-AR,es;q=0.9" });
    expect(historyRow.body.data).toEqual([
      expect.objectContaining({
        from: expect.any(String),
        to: denied.e164,
        recipient: denied.e164,
        error_code: "deny_list",
        error_message: "El número está en la lista de bloqueo de la cuenta; no enviado y sin cargo",
      }),
    ]);
    expect(blockedNow.body.data.events.map((e: { status: string }) => e.status)).toEqual(["optout"]);
    expect(await balanceOf(p.accountId)).toBe(1_000 - DEFAULT_T1);

    // Every recipient blocked: nothing charged, even with no balance at all, and no outbox row.
    await setAccount(p.accountId, { balance: 0 });
    const none = await api("/api/sms/messages", { token: p.token, body: { to: [out.e164, denied.e164], body: "De novo" } });
    expect(none.status, JSON.stringify(none.body)).toBe(200);
    expect(none.body.total_price).toBe(0);
    expect(none.body.data.map((d: { status: string }) => d.status)).toEqual(["optout", "rejected"]);
    expect(await balanceOf(p.accountId)).toBe(0);
    expect(await query("SELECT id FROM outbox WHERE payload->>'message_id' = ANY($1::text[])", [none.body.data.map((d: { id: string }) => d.id)])).toEqual([]);

    // After removing the opt-out the number is sent to (and charged) again.
    const [optout] = await query<{ id: string }>("SELECT id FROM optouts WHERE account_id = $1 AND recipient = $2", [p.accountId, out.e164]);
    expect((await api(`/api/optouts/${optout.id}`, { token: p.token, method: "DELETE" })).status).toBe(200);
    await setAccount(p.accountId, { balance: 100 });
    const resumed = await api("/api/sms/messages", { token: p.token, body: { to: out.e164, body: "Voltou" } });
    expect(resumed.body.data[0]).toMatchObject({ status: "queued", price: DEFAULT_T1 });
    expect(await balanceOf(p.accountId)).toBe(100 - DEFAULT_T1);
  });

  it("a number on both lists is an opt-out (the recipient's own choice)", async () => {
    const p = await person("optboth", 100);
    const n = nextNumber();
    await api("/api/optouts", { token: p.token, body: { recipient: n.typed } });
    await api("/api/blacklist", { token: p.token, body: { recipient: n.typed } });
    const res = await api("/api/sms/messages", { token: p.token, body: { to: n.typed, body: "Oi" } });
    expect(res.body.data).toEqual([expect.objectContaining({ status: "optout", error_code: "optout", price: 0 })]);
    expect(await query("SELECT status FROM messages WHERE account_id = $1", [p.accountId])).toEqual([{ status: "optout" }]);
  });
});

describe("tenancy", () => {
  it("another account cannot list or delete them, and its sends ignore the first account's lists", async () => {
    const a = await person("opttenanta", 100);
    const b = await person("opttenantb", 100);
    const out = nextNumber();
    const denied = nextNumber();
    const o = await api("/api/optouts", { token: a.token, body: { recipient: out.typed } });
    const d = await api("/api/blacklist", { token: a.token, body: { recipient: denied.typed } });

    const bOptouts = await api("/api/optouts", { token: b.token });
    expect(bOptouts.status).toBe(200);
    expect(bOptouts.body).toMatchObject({ data: [], total: 0 });
    expect((await api("/api/blacklist", { token: b.token })).body).toMatchObject({ data: [], total: 0 });
    expect((await api(`/api/optouts/${o.body.data.id}`, { token: b.token, method: "DELETE" })).status).toBe(404);
    expect((await api(`/api/blacklist/${d.body.data.id}`, { token: b.token, method: "DELETE" })).status).toBe(404);
    expect(await query("SELECT id FROM optouts WHERE id = $1", [o.body.data.id])).toHaveLength(1);
    expect(await query("SELECT id FROM deny_list WHERE id = $1", [d.body.data.id])).toHaveLength(1);

    const sent = await api("/api/sms/messages", { token: b.token, body: { to: [out.typed, denied.typed], body: "Outra empresa" } });
    expect(sent.status).toBe(200);
    expect(sent.body.data.map((m: { status: string }) => m.status)).toEqual(["queued", "queued"]);
    expect(sent.body.total_price).toBe(2 * DEFAULT_T1);
    expect(await balanceOf(b.accountId)).toBe(100 - 2 * DEFAULT_T1);

    // The same number may be opted out in both accounts independently.
    const bOwn = await api("/api/optouts", { token: b.token, body: { recipient: out.e164 } });
    expect(bOwn.body).toMatchObject({ created: true });
    expect(bOwn.body.data.id).not.toBe(o.body.data.id);
  });
});

describe("opt-out and deny-list pages", () => {
  it("page by keyset (limit, cursor): every entry once, newest first, next_cursor null at the end; a bad cursor is 422 on cursor; `page` still answers its count", async () => {
    const p = await person("optpages");
    for (const path of ["/api/optouts", "/api/blacklist"]) {
      const added: string[] = [];
      for (let i = 0; i < 5; i++) {
        const r = await api(path, { token: p.token, body: { recipient: nextNumber().typed } });
        expect(r.status, JSON.stringify(r.body)).toBe(201);
        added.unshift(r.body.data.id);
      }
      const seen: string[] = [];
      let cursor: string | null = null;
      let pages = 0;
      do {
        const res: { status: number; body: any } = await api(`${path}?limit=2${cursor ? `&cursor=${cursor}` : ""}`, { token: p.token });
        expect(res.status, JSON.stringify(res.body)).toBe(200);
        expect(res.body.data.length).toBeLessThanOrEqual(2);
        seen.push(...res.body.data.map((o: { id: string }) => o.id));
        // Keyset pages carry no count (the deprecated page style does).
        if (cursor) expect(res.body.last_page).toBeUndefined();
        cursor = res.body.next_cursor;
        pages++;
      } while (cursor && pages < 10);
      expect(pages, path).toBe(3);
      expect(seen, path).toEqual(added);
      const bad = await api(`${path}?cursor=bm9wZQ`, { token: p.token, lang: "en" });
      expect(bad.status, path).toBe(422);
      expect(Object.keys(bad.body.error.fields), path).toEqual(["cursor"]);
      const second = await api(`${path}?limit=2&page=2`, { token: p.token });
      expect(second.body).toMatchObject({ page: 2, last_page: 3, total: 5 });
      expect(second.body.data.map((o: { id: string }) => o.id)).toEqual(added.slice(2, 4));
      expect(second.body.next_cursor).toEqual(expect.any(String));
    }
  });
});
