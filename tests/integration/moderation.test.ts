/**
 * Moderation holds over the real processes: a body with a word or URL under review is held (a
 * pending message with no outbox row, the simulator never sees it); platform staff approve →
 * it is sent and delivered; reject → rejected with the reason and refunded exactly once. Who may
 * do what, tenancy and validation are checked too.
 */
import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, inject, it } from "vitest";
import { simulatedOutcome } from "../../api/simulator/outcome";
import { api, login, registerPerson, type Person } from "../support/api";
import { query } from "../support/db";
import { dispatchSettled } from "../support/wait";
import { DEMO_PASSWORD, signIn } from "../support/web";
import { setAccount, setMember, setModerationApproval } from "../support/factories";

const PRICE = 8; // T1, one segment (api/sms/pricing.ts)
type P = Person & { token: string };
let staff: string;
let word: string;
let domain: string;

async function person(tag: string, balance = 1_000): Promise<P> {
  const p = await registerPerson(tag);
  await setAccount(p.accountId, { balance });
  return { ...p, token: (await login(p.email, p.password)).token };
}
const balanceOf = async (accountId: string) => Number((await query<{ balance: string }>("SELECT balance FROM account_balances WHERE account_id = $1", [accountId]))[0].balance);
const messageRow = async (id: string) => (await query<Record<string, any>>("SELECT * FROM messages WHERE id = $1", [id]))[0];
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
const nextNumber = () => `11 9${String(50000000 + seq++)}`;

async function send(p: P, body: string, to: string[] = [nextNumber()]) {
  const res = await api("/api/sms/messages", { token: p.token, body: { to, body } });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body as { data: Array<{ id: string; status: string; price: number; error_code?: string }>; total_price: number };
}

beforeAll(async () => {
  staff = (await login("staff@demo.example", DEMO_PASSWORD)).token;
  const tag = randomUUID().slice(0, 6);
  word = `premiox${tag}`;
  domain = `golpe-${tag}.example.com`;
  const w = await api("/api/words", { token: staff, body: { value: `Prêmiox${tag}`.replace("ê", "e"), note: "sorteio falso" } });
  expect(w.status, JSON.stringify(w.body)).toBe(201);
  expect(w.body.data).toMatchObject({ kind: "word", value: word });
  const u = await api("/api/urls", { token: staff, body: { value: `https://www.${domain}/promo` } });
  expect(u.status, JSON.stringify(u.body)).toBe(201);
  expect(u.body.data.value).toBe(domain);
});

async function approvalFor(p: P, kind: "words" | "urls", value: string) {
  const list = await api(`/api/${kind}/approvals?status=pending`, { token: staff });
  expect(list.status).toBe(200);
  return list.body.data.find((a: { account_id: string; value: string }) => a.account_id === p.accountId && a.value === value);
}

describe("moderation: words and URLs under review", () => {
  it("the account's reviews page by keyset (pending first, newest first) and a request is 201 + Location", async () => {
    const p = await person("modpages");
    await setMember(p.accountId, p.userId, { role: "admin" });
    const tag = randomUUID().slice(0, 6);
    const asked: string[] = [];
    for (const i of [1, 2, 3]) {
      const r = await api("/api/words/approvals", { token: p.token, body: { value: `pedido${i}x${tag}`, note: "campanha real" } });
      expect(r.status, JSON.stringify(r.body)).toBe(201);
      expect(r.body).toMatchObject({ created: true, data: { status: "pending", value: `pedido${i}x${tag}`, note: "campanha real" } });
      expect(r.headers.get("location")).toBe(`/api/words/approvals/${r.body.data.id}`);
      const got = await api(r.headers.get("location")!, { token: p.token });
      expect(got.status).toBe(200);
      expect(got.body.data).toMatchObject({ ...r.body.data, messages: [] });
      asked.push(r.body.data.id);
    }
    // Asking again for an open request answers it (200, no Location) with the new note.
    const again = await api("/api/words/approvals", { token: p.token, body: { value: `pedido1x${tag}`, note: "nota nova" } });
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ created: false, data: { id: asked[0], note: "nota nova" } });
    expect(again.headers.get("location")).toBeNull();
    // One decided review goes after the pending ones.
    await setModerationApproval(asked[2], { status: "rejected", reason: "x" });
    const first = await api("/api/words/approvals?limit=2", { token: p.token });
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(first.body.data.map((a: { id: string }) => a.id)).toEqual([asked[1], asked[0]]);
    expect(first.body.next_cursor).toEqual(expect.any(String));
    const second = await api(`/api/words/approvals?limit=2&cursor=${first.body.next_cursor}`, { token: p.token });
    expect(second.status, JSON.stringify(second.body)).toBe(200);
    expect(second.body.data.map((a: { id: string }) => a.id)).toEqual([asked[2]]);
    expect(second.body.next_cursor).toBeNull();
    // The status filter pages the same way; a bad cursor or limit is a 422 on that field.
    const pending = await api("/api/words/approvals?status=pending&limit=1", { token: p.token });
    expect(pending.body.data.map((a: { id: string }) => a.id)).toEqual([asked[1]]);
    const rest = await api(`/api/words/approvals?status=pending&limit=5&cursor=${pending.body.next_cursor}`, { token: p.token });
    expect(rest.body).toMatchObject({ data: [{ id: asked[0] }], next_cursor: null });
    for (const bad of ["cursor=bm9wZQ", `cursor=${Buffer.from(JSON.stringify([1, "x", "y"])).toString("base64url")}`]) {
      const res = await api(`/api/words/approvals?${bad}`, { token: p.token, lang: "en" });
      expect(res.status, bad).toBe(422);
      expect(Object.keys(res.body.error.fields)).toEqual(["cursor"]);
    }
    const zero = await api("/api/words/approvals?limit=0", { token: p.token, lang: "en" });
    expect(zero.status).toBe(422);
    expect(Object.keys(zero.body.error.fields)).toEqual(["limit"]);
  });

  it("the /sms/antifraude screen pages the reviews by cursor: 20 a page, then the next", async () => {
    const p = await person("modscreen");
    await setMember(p.accountId, p.userId, { role: "admin" });
    const tag = randomUUID().slice(0, 6);
    for (let i = 1; i <= 21; i++) {
      expect((await api("/api/words/approvals", { token: p.token, body: { value: `tela${i}x${tag}` } })).status).toBe(201);
    }
    const web = await signIn(p.email, p.password);
    const first = (await web.page("/sms/antifraude?status=pending")).html;
    for (let i = 2; i <= 21; i++) expect(first).toContain(`tela${i}x${tag}`);
    expect(first).not.toContain(`tela1x${tag}`);
    const next = first.match(/href="(\?[^"]*word_cursor=[^"]*)"/)?.[1]?.replaceAll("&amp;", "&");
    expect(next).toMatch(/^\?status=pending&word_cursor=/);
    const second = (await web.page(`/sms/antifraude${next}`)).html;
    expect(second).toContain(`tela1x${tag}`);
    expect(second).not.toContain(`tela2x${tag}`);
    expect(second).not.toMatch(/href="[^"]*word_cursor=/); // no next page
    expect(second).toContain('href="?status=pending"');
  });

  it("holds a message with a word under review (not sent, charged), and approval sends it", async () => {
    const p = await person("modapprove");
    const clean = await send(p, "Seu pedido saiu para entrega");
    expect(clean.data[0].status).toBe("queued");

    // Case and accents do not matter: "PRÊMIOX…" holds on the word "premiox…".
    const held = await send(p, `Você ganhou um PRÊMIOX${word.slice(7).toUpperCase()} hoje!`, [nextNumber(), nextNumber()]);
    expect(held.data.map((d) => [d.status, d.error_code, d.price])).toEqual([
      ["pending", "moderation", PRICE],
      ["pending", "moderation", PRICE],
    ]);
    expect(await balanceOf(p.accountId)).toBe(1_000 - 3 * PRICE);
    for (const d of held.data) {
      const row = await messageRow(d.id);
      expect(row).toMatchObject({ status: "pending", error_code: "moderation", queued_at: null, price: String(PRICE) });
      expect(await query("SELECT 1 FROM outbox WHERE payload->>'message_id' = $1", [d.id])).toEqual([]);
      expect((await query<{ status: string }>("SELECT status FROM message_events WHERE message_id = $1 ORDER BY id", [d.id])).map((e) => e.status)).toEqual(["pending"]);
    }
    await until("the clean message final", async () => ["delivered", "failed", "unavailable"].includes((await messageRow(clean.data[0].id)).status));
    // Signal: no outbox row or stream entry exists for the held ones (nothing in flight could
    // submit them), and the sweep republishes only queued/sending messages, never pending.
    await dispatchSettled(held.data.map((d) => d.id));
    for (const d of held.data) {
      expect(await submits(d.id)).toBe(0);
      expect((await messageRow(d.id)).status).toBe("pending");
    }
    // A pending message under review cannot be claimed even if someone publishes it.
    // The claim the dispatcher makes, as SQL: what is tested is that the database refuses it.
    const claim = await query(`UPDATE messages SET status = 'sending' WHERE id = $1 RETURNING id`, [held.data[0].id]);
    expect(claim).toEqual([]);

    // The account sees its review; another account does not; only staff decide.
    const approval = await approvalFor(p, "words", word);
    expect(approval).toMatchObject({ status: "pending", held: 2, total: 2 });
    await setMember(p.accountId, p.userId, { role: "admin" });
    const own = await api("/api/words/approvals", { token: p.token });
    expect(own.status).toBe(200);
    expect(own.body.data.map((a: { id: string }) => a.id)).toEqual([approval.id]);
    expect(own.body.next_cursor).toBeNull();
    expect((await api(`/api/words/approvals/${approval.id}/approve`, { token: p.token, method: "POST" })).status).toBe(403);
    expect((await api("/api/words", { token: p.token })).status).toBe(403);
    const note = await api(`/api/words/approvals/${approval.id}`, { token: p.token, method: "PUT", body: { note: "Campanha de fidelidade real" } });
    expect(note.body.data.note).toBe("Campanha de fidelidade real");
    const stranger = await person("modstranger");
    await setMember(stranger.accountId, stranger.userId, { role: "admin" });
    expect((await api(`/api/words/approvals/${approval.id}`, { token: stranger.token })).status).toBe(404);
    expect((await api("/api/words/approvals", { token: stranger.token })).body.data).toEqual([]);

    const detail = await api(`/api/words/approvals/${approval.id}`, { token: staff });
    expect(detail.body.data.messages.map((m: { id: string }) => m.id).sort()).toEqual(held.data.map((d) => d.id).sort());
    // The spec's from/to, with sender/recipient kept as deprecated aliases.
    for (const m of detail.body.data.messages) {
      const row = await messageRow(m.id);
      expect(m).toMatchObject({ from: row.sender, to: row.recipient, sender: row.sender, recipient: row.recipient });
    }

    const ok = await api(`/api/words/approvals/${approval.id}/approve`, { token: staff, method: "POST" });
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    expect(ok.body).toMatchObject({ released: 2, data: { status: "approved", held: 0 } });
    for (const d of held.data) {
      const final = await until("released message final", async () => {
        const row = await messageRow(d.id);
        return ["delivered", "failed", "unavailable"].includes(row.status) ? row : undefined;
      });
      expect(final.status).toBe(simulatedOutcome(d.id));
      expect(final.error_code === null || final.status !== "delivered").toBe(true);
      expect(await submits(d.id)).toBe(1);
    }
    // Approving again changes nothing; the account may now use the word.
    expect((await api(`/api/words/approvals/${approval.id}/approve`, { token: staff, method: "POST" })).body.released).toBe(0);
    const after = await send(p, `Mais um ${word}`);
    expect(after.data[0].status).toBe("queued");
    expect(await balanceOf(p.accountId)).toBe(1_000 - 4 * PRICE);
  });

  it("rejecting a URL review rejects its held messages with the reason and refunds them exactly once", async () => {
    const p = await person("modreject");
    const held = await send(p, `Atualize seus dados em http://${domain}/login agora`, [nextNumber(), nextNumber(), nextNumber()]);
    expect(held.data.every((d) => d.status === "pending")).toBe(true);
    expect(await balanceOf(p.accountId)).toBe(1_000 - 3 * PRICE);
    const approval = await approvalFor(p, "urls", domain);
    expect(approval).toMatchObject({ held: 3 });

    const missing = await api(`/api/urls/approvals/${approval.id}/reject`, { token: staff, body: { reason: " " }, lang: "en" });
    expect(missing.status).toBe(422);
    expect(Object.keys(missing.body.error.fields)).toEqual(["reason"]);

    const [first, second] = await Promise.all([
      api(`/api/urls/approvals/${approval.id}/reject`, { token: staff, body: { reason: "Link de phishing" } }),
      api(`/api/urls/approvals/${approval.id}/reject`, { token: staff, body: { reason: "Link de phishing" } }),
    ]);
    expect([first.status, second.status]).toEqual([200, 200]);
    expect([first.body.refunded, second.body.refunded].sort((a, b) => a - b)).toEqual([0, 3 * PRICE]);
    expect(await balanceOf(p.accountId)).toBe(1_000); // every centavo back, once
    for (const d of held.data) {
      const row = await messageRow(d.id);
      expect(row).toMatchObject({ status: "rejected", error_code: "moderation_rejected", error_message: "Link de phishing", price: "0" });
      expect(await submits(d.id)).toBe(0);
      const events = await query<{ status: string; payload: Record<string, unknown> }>("SELECT status, payload FROM message_events WHERE message_id = $1 ORDER BY id", [d.id]);
      expect(events.map((e) => e.status)).toEqual(["pending", "rejected"]);
      expect(events[1].payload).toMatchObject({ refunded: PRICE, error_message: "Link de phishing" });
    }
    // Deciding the opposite way now is refused; nothing changes.
    expect((await api(`/api/urls/approvals/${approval.id}/approve`, { token: staff, method: "POST" })).status).toBe(422);
    expect(await balanceOf(p.accountId)).toBe(1_000);
    // A later message with the domain is held again, in a new review.
    const again = await send(p, `Veja https://${domain}`);
    expect(again.data[0].status).toBe("pending");
    expect((await approvalFor(p, "urls", domain)).id).not.toBe(approval.id);
  });

  it("a message held by a word and a URL waits for both reviews", async () => {
    const p = await person("modboth");
    const held = await send(p, `${word} em ${domain}`);
    const w = await approvalFor(p, "words", word);
    const u = await approvalFor(p, "urls", domain);
    expect((await api(`/api/words/approvals/${w.id}/approve`, { token: staff, method: "POST" })).body.released).toBe(0);
    expect((await messageRow(held.data[0].id)).status).toBe("pending");
    expect((await api(`/api/urls/approvals/${u.id}/approve`, { token: staff, method: "POST" })).body.released).toBe(1);
    await until("sent", async () => ["sent", "delivered", "failed", "unavailable"].includes((await messageRow(held.data[0].id)).status));
  });

  it("only platform staff keep the lists; values are validated", async () => {
    const p = await person("modlists");
    expect((await api("/api/words", { token: p.token, body: { value: "x" } })).status).toBe(403);
    const bad = await api("/api/urls", { token: staff, body: { value: "not a domain" }, lang: "en" });
    expect(bad.status).toBe(422);
    expect(Object.keys(bad.body.error.fields)).toEqual(["value"]);
    const dup = await api("/api/words", { token: staff, body: { value: word.toUpperCase() } });
    expect(dup.status).toBe(200);
    expect(dup.body.created).toBe(false);
    expect(dup.headers.get("location")).toBeNull();
    // A create is 201 with Location: the URL answers the same term.
    const tmp = await api("/api/words", { token: staff, body: { value: `tmp${randomUUID().slice(0, 8)}` } });
    expect(tmp.status, JSON.stringify(tmp.body)).toBe(201);
    expect(tmp.body.created).toBe(true);
    expect(tmp.headers.get("location")).toBe(`/api/words/${tmp.body.data.id}`);
    const got = await api(tmp.headers.get("location")!, { token: staff });
    expect(got.status).toBe(200);
    expect(got.body.data).toEqual(tmp.body.data);
    expect((await api(`/api/urls/${tmp.body.data.id}`, { token: staff })).status).toBe(404);
    // The list pages by keyset (by value): walk it to the new term, each term once.
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page: { status: number; body: { data: Array<{ id: string; value: string }>; next_cursor: string | null } } = await api(
        `/api/words?limit=5${cursor ? `&cursor=${cursor}` : ""}`,
        { token: staff },
      );
      expect(page.status, JSON.stringify(page.body)).toBe(200);
      expect(page.body.data.length).toBeLessThanOrEqual(5);
      seen.push(...page.body.data.map((t) => t.id));
      cursor = page.body.next_cursor;
    } while (cursor);
    expect(seen).toContain(tmp.body.data.id);
    expect(new Set(seen).size).toBe(seen.length);
    expect((await api("/api/words?cursor=bm90LWEta2V5", { token: staff, lang: "en" })).body.error.fields).toHaveProperty("cursor");
    expect((await api(`/api/words/${tmp.body.data.id}`, { token: staff, method: "DELETE" })).status).toBe(200);
    expect((await api(`/api/words/${tmp.body.data.id}`, { token: staff, method: "DELETE" })).status).toBe(404);
  });
});
