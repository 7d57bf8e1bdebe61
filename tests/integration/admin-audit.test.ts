/**
 * Platform administration's audit, logs and SMS trackers (issue 23, ADR 062), on the run's stack:
 * - /admin/audit and GET /api/admin/audit: platform staff read every account's entries, a
 *   reseller's owner its own and its customers' only, a customer's owner is refused; filters by
 *   account, user, action and days (an invalid day is named beside its field); keyset pages; a
 *   change shows before → after.
 * - /admin/audit/insights: per day, per action type and per user, with the same scoping.
 * - /admin/logs (staff only): an application error (the API's 502 of a provider that did not
 *   answer; an unexpected exception through the same error mapper) and a provider's refusal of a
 *   send really appear, searchable, with no secret and no message body in them.
 * - /admin/trackers and GET/POST/DELETE /api/admin/sms/trackers (staff only): a tracker of a
 *   number finds the messages of two accounts, newest first; creating and deleting one (forms
 *   without JavaScript) are audited with before/after.
 */
import { Elysia } from "elysia";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { api, giveShortCode, login } from "../support/api";
import { query } from "../support/db";
import { setAccount, setMessages } from "../support/factories";
import { DEMO_PASSWORD, location, signIn, signedInCustomer, type WebClient, type WebCustomer } from "../support/web";

process.env.DATABASE_URL = inject("databaseUrl");
const { errors } = await import("../../api/http/errors");
const { pruneAppLogs, recordAppLog } = await import("../../api/app-logs/record");
const { closeDb } = await import("../../models/db");

type Who = WebCustomer & { token: string };
let staffWeb: WebClient;
let staff: string;
let reseller: Who;
let child: Who;
let other: Who;

const tokenOf = async (email: string) => (await login(email, DEMO_PASSWORD)).token;
const who = async (tag: string): Promise<Who> => {
  const c = await signedInCustomer(tag, { company: `Audit ${tag}` });
  return { ...c, token: await tokenOf(c.email) };
};
const nameOf = async (accountId: string) => (await query<{ name: string }>("SELECT name FROM accounts WHERE id = $1", [accountId]))[0].name;
let seq = 30_000_000 + Math.floor(Math.random() * 60_000_000);
const nextNumber = () => `+55119${String(seq++).padStart(8, "0")}`;

beforeAll(async () => {
  staffWeb = await signIn("staff@demo.example");
  staff = await tokenOf("staff@demo.example");
  reseller = await who("aud-resel");
  await setAccount(reseller.accountId, { type: "reseller" });
  child = await who("aud-child");
  await query("UPDATE accounts SET parent_account_id = $1 WHERE id = $2", [reseller.accountId, child.accountId]);
  other = await who("aud-other");
}, 60_000);

afterAll(async () => {
  await closeDb();
});

describe("/admin/audit and GET /api/admin/audit", () => {
  it("platform staff read any account's entries; a reseller its own and its customers' only; a customer's owner is refused", async () => {
    // Registering and signing in wrote auth.register and auth.login for each account.
    for (const acc of [child, other, reseller]) {
      const r = await api(`/api/admin/audit?account=${acc.accountId}`, { token: staff, lang: "en" });
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      expect(r.body.data.map((e: { action: string }) => e.action)).toContain("auth.register");
      expect(r.body.data.every((e: { account_id: string }) => e.account_id === acc.accountId)).toBe(true);
      expect(r.body.data.find((e: { action: string }) => e.action === "auth.register")).toMatchObject({
        description: "Registered",
        user_email: acc.email,
        account_name: await nameOf(acc.accountId),
      });
    }

    const mine = await api("/api/admin/audit?limit=200", { token: reseller.token });
    expect(mine.status).toBe(200);
    const accounts = new Set(mine.body.data.map((e: { account_id: string }) => e.account_id));
    expect(accounts).toEqual(new Set([reseller.accountId, child.accountId]));
    // Another account named in the filter is simply out of reach: nothing.
    const outside = await api(`/api/admin/audit?account=${other.accountId}`, { token: reseller.token });
    expect(outside.status).toBe(200);
    expect(outside.body.data).toEqual([]);

    expect((await api("/api/admin/audit", { token: other.token })).status).toBe(403);
    expect((await api("/api/admin/audit", { token: child.token })).status).toBe(403);

    // The screens say the same.
    const staffPage = await staffWeb.page(`/admin/audit?account=${child.accountId}`);
    expect(staffPage.res.status).toBe(200);
    expect(staffPage.html).toContain(child.email);
    const resellerPage = await reseller.client.page("/admin/audit");
    expect(resellerPage.res.status).toBe(200);
    expect(resellerPage.html).toContain(child.email);
    expect(resellerPage.html).toContain(reseller.email);
    expect(resellerPage.html).not.toContain(other.email);
    for (const c of [other.client, child.client]) {
      const res = await c.get("/admin/audit");
      expect([res.status, location(res)]).toEqual([302, "/403"]);
    }
    // In a reseller, only its owner and admin administer: an agent of one is refused too.
    const resellerAgent = await signedInCustomer("aud-resagent", { role: "agent" });
    await setAccount(resellerAgent.accountId, { type: "reseller" });
    const refused = await resellerAgent.client.get("/admin/audit");
    expect([refused.status, location(refused)]).toEqual([302, "/403"]);
    expect((await api("/api/admin/audit", { token: await tokenOf(resellerAgent.email) })).status).toBe(403);
  });

  it("filters by user, action and days (an invalid day is named beside its field) and pages by keyset", async () => {
    const byUser = await api(`/api/admin/audit?user=${encodeURIComponent(child.email.toUpperCase())}&action=auth.`, { token: staff });
    expect(byUser.status).toBe(200);
    expect(byUser.body.data.length).toBeGreaterThanOrEqual(2);
    expect(byUser.body.data.every((e: { user_email: string; action: string }) => e.user_email === child.email && e.action.startsWith("auth."))).toBe(true);
    const exact = await api(`/api/admin/audit?user=${child.userId}&action=auth.register`, { token: staff });
    expect(exact.body.data.map((e: { action: string }) => e.action)).toEqual(["auth.register"]);

    const tomorrow = new Date(Date.now() + 2 * 86_400_000).toISOString().slice(0, 10);
    const future = await api(`/api/admin/audit?account=${child.accountId}&from=${tomorrow}`, { token: staff });
    expect(future.body.data).toEqual([]);
    const today = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
    const recent = await api(`/api/admin/audit?account=${child.accountId}&from=${today}&to=${tomorrow}`, { token: staff });
    expect(recent.body.data.length).toBeGreaterThan(0);

    // Keyset: one entry a page, every entry once, newest first.
    const all = (await api(`/api/admin/audit?account=${child.accountId}&limit=200`, { token: staff })).body.data.map((e: { id: number }) => e.id);
    const seen: number[] = [];
    let cursor: string | null = "";
    while (cursor !== null) {
      const p: { status: number; body: { data: Array<{ id: number }>; next_cursor: string | null } } = await api(
        `/api/admin/audit?account=${child.accountId}&limit=1${cursor ? `&cursor=${cursor}` : ""}`,
        { token: staff },
      );
      expect(p.status).toBe(200);
      seen.push(...p.body.data.map((e) => e.id));
      cursor = p.body.next_cursor;
    }
    expect(seen).toEqual(all);
    expect(all.length).toBeGreaterThanOrEqual(2);

    const bad = await staffWeb.page("/admin/audit?from=2026-02-31&action=Bad Action");
    expect(bad.res.status).toBe(200);
    expect(bad.html).toMatch(/id="filter-from-error"[^>]*>[^<]+</);
    expect(bad.html).toMatch(/id="filter-action-error"[^>]*>[^<]+</);
    expect((await api("/api/admin/audit?from=2026-13-01", { token: staff })).status).toBe(422);

    const filtered = await staffWeb.page(`/admin/audit?user=${encodeURIComponent(child.email)}&action=auth.register`);
    expect(filtered.html).toContain(child.email);
    expect(filtered.html).not.toContain(other.email);
  });
});

describe("/admin/audit/insights", () => {
  it("counts per day, action type and user within reach; a customer's owner is refused", async () => {
    const staffPage = await staffWeb.page(`/admin/audit/insights?account=${child.accountId}`);
    expect(staffPage.res.status).toBe(200);
    // The per-type table has auth.register for the child's account, the per-user table its owner.
    expect(staffPage.html).toMatch(/data-table="by-type"[\s\S]*data-key="auth\.register"/);
    expect(staffPage.html).toMatch(new RegExp(`data-table="by-user"[\\s\\S]*data-key="${child.userId}"`));
    expect(staffPage.html).toMatch(/data-count="[1-9]\d*"/);
    // The three views count the same entries: every entry of the child's account (all made today).
    const [{ n }] = await query<{ n: number }>("SELECT count(*)::int AS n FROM audit_logs WHERE account_id = $1", [child.accountId]);
    const sum = (re: RegExp, html: string) => [...html.matchAll(re)].reduce((s, m) => s + Number(m[1]), 0);
    const table = (name: string) => staffPage.html.slice(staffPage.html.indexOf(`data-table="${name}"`)).split("</table>")[0];
    expect(sum(/data-day="[^"]+" data-count="(\d+)"/g, staffPage.html)).toBe(n);
    expect(sum(/data-col="total">(\d+)</g, table("by-type"))).toBe(n);
    expect(sum(/data-col="total">(\d+)</g, table("by-user"))).toBe(n);

    const mine = await reseller.client.page("/admin/audit/insights");
    expect(mine.res.status).toBe(200);
    expect(mine.html).toContain(`data-key="${child.userId}"`);
    expect(mine.html).toContain(`data-key="${reseller.userId}"`);
    expect(mine.html).not.toContain(`data-key="${other.userId}"`);
    const outside = await reseller.client.page(`/admin/audit/insights?account=${other.accountId}`);
    expect(outside.html).not.toMatch(/data-count="[1-9]/);

    const res = await other.client.get("/admin/audit/insights");
    expect([res.status, location(res)]).toEqual([302, "/403"]);
    // More than 31 days is refused beside the field.
    const long = await staffWeb.page("/admin/audit/insights?from=2026-01-01&to=2026-03-31");
    expect(long.html).toMatch(/id="filter-to-error"[^>]*>[^<]+</);
  });
});

describe("/admin/logs", () => {
  it("shows an application error (the API's 502) and a provider's refusal of a send, searchable; staff only", async () => {
    // An application error: the lookup provider does not answer (the simulator's 0503 number) -> 502.
    await setAccount(other.accountId, { balance: 100_000 });
    const lookup = await api(`/api/lookup?number=${encodeURIComponent("+5511999990503")}`, { token: other.token });
    expect(lookup.status).toBe(502);

    // A provider failure: the simulator refuses +15005550001 at submit (the API does not accept the
    // number, so a scheduled message is pointed at it and made due).
    const from = await giveShortCode(other.accountId);
    const later = new Date(Date.now() + 3_600_000).toISOString();
    const body = `corpo secreto ${Math.random().toString(36).slice(2)}`;
    const sent = await api("/api/sms/messages", { token: other.token, body: { to: nextNumber(), body, from, scheduled_at: later } });
    expect(sent.status, JSON.stringify(sent.body)).toBe(200);
    const id = sent.body.data[0].id as string;
    await setMessages([id], { recipient: "+15005550001", scheduledAt: new Date() });

    const logsOf = async () => (await api(`/api/admin/logs?account=${other.accountId}&limit=200`, { token: staff })).body.data as Array<Record<string, any>>;
    await expect.poll(async () => (await logsOf()).some((l) => l.source === "provider" && l.detail.message_id === id), { timeout: 30_000, interval: 250 }).toBe(true);
    const logs = await logsOf();
    const app = logs.find((l) => l.source === "api");
    expect(app).toMatchObject({ code: "PROVIDER_UNAVAILABLE", detail: { method: "GET", path: "/api/lookup", status: 502 } });
    const provider = logs.find((l) => l.source === "provider" && l.detail.message_id === id)!;
    expect(provider).toMatchObject({ code: "invalid_number", account_id: other.accountId, detail: { channel: "sms", provider: "simulator", kind: "permanent" } });
    expect(JSON.stringify(logs)).not.toContain(body);
    expect(JSON.stringify(logs)).not.toContain(other.token);

    // The screen: both rows for the account; the text search and the source narrow them.
    const page = await staffWeb.page(`/admin/logs?account=${other.accountId}`);
    expect(page.res.status).toBe(200);
    // A row's code cell (the page also carries the error catalogue's texts, keyed by code).
    const codeCell = (code: string) => new RegExp(`<td[^>]*>${code}</td>`);
    expect(page.html).toMatch(codeCell("PROVIDER_UNAVAILABLE"));
    expect(page.html).toMatch(codeCell("invalid_number"));
    expect(page.html).toContain(`message_id=${id}`);
    const searched = await staffWeb.page(`/admin/logs?account=${other.accountId}&q=invalid_num&source=provider`);
    expect(searched.html).toMatch(codeCell("invalid_number"));
    expect(searched.html).not.toMatch(codeCell("PROVIDER_UNAVAILABLE"));
    const apiOnly = await staffWeb.page(`/admin/logs?account=${other.accountId}&source=api`);
    expect(apiOnly.html).toMatch(codeCell("PROVIDER_UNAVAILABLE"));
    expect(apiOnly.html).not.toMatch(codeCell("invalid_number"));

    for (const c of [reseller.client, other.client]) {
      const res = await c.get("/admin/logs");
      expect([res.status, location(res)]).toEqual([302, "/403"]);
    }
    expect((await api("/api/admin/logs", { token: reseller.token })).status).toBe(403);
  }, 60_000);

  it("an unexpected exception through the API's error mapper is kept without its query string or credentials", async () => {
    const marker = `boom${Math.random().toString(36).slice(2)}`;
    const app = new Elysia().use(errors).get("/explode", () => {
      throw new TypeError(`${marker} failed: Authorization: Bearer abcdef123456 password=hunter2`);
    });
    const res = await app.handle(new Request("http://localhost/explode?token=querysecret"));
    expect(res.status).toBe(500);
    await expect.poll(async () => (await api(`/api/admin/logs?q=${marker}`, { token: staff })).body.data.length, { timeout: 10_000, interval: 100 }).toBe(1);
    const [row] = (await api(`/api/admin/logs?q=${marker}`, { token: staff })).body.data;
    expect(row).toMatchObject({ source: "api", code: "TypeError", detail: { method: "GET", path: "/explode", status: 500 } });
    expect(row.message).toContain(marker);
    expect(JSON.stringify(row)).not.toMatch(/abcdef123456|hunter2|querysecret/);
    const page = await staffWeb.page(`/admin/logs?q=${marker}`);
    expect(page.html).toContain(marker);
  });
});

describe("app_logs retention", () => {
  it("the worker's sweep deletes what is older than 30 days and keeps the rest", async () => {
    const marker = `retention${Math.random().toString(36).slice(2)}`;
    await recordAppLog({ source: "api", code: "OLD", message: `${marker} old` });
    await recordAppLog({ source: "api", code: "NEW", message: `${marker} new` });
    await query(`UPDATE app_logs SET created_at = now() - interval '31 days' WHERE message = $1`, [`${marker} old`]);
    expect(await pruneAppLogs()).toBeGreaterThanOrEqual(1);
    const left = await query<{ code: string }>(`SELECT code FROM app_logs WHERE message LIKE $1`, [`${marker}%`]);
    expect(left.map((r) => r.code)).toEqual(["NEW"]);
  });
});

describe("/admin/trackers and /api/admin/sms/trackers", () => {
  it("a number's tracker finds the messages of two accounts, newest first; staff only", async () => {
    const number = nextNumber();
    const senders: Array<{ who: Who; from: string }> = [];
    for (const w of [child, other]) {
      await setAccount(w.accountId, { balance: 100_000 });
      senders.push({ who: w, from: await giveShortCode(w.accountId) });
    }
    const ids: string[] = [];
    for (const s of senders) {
      const r = await api("/api/sms/messages", { token: s.who.token, body: { to: number, body: "Oi do rastreador", from: s.from } });
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      ids.push(r.body.data[0].id);
    }

    const made = await api("/api/admin/sms/trackers", { token: staff, body: { kind: "phone", value: number.slice(3), label: "Suspeito" }, lang: "en" });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    expect(made.body.data).toMatchObject({ kind: "phone", value: number, label: "Suspeito", created_by_email: "staff@demo.example" });
    expect(made.headers.get("location")).toBe(`/api/admin/sms/trackers/${made.body.data.id}`);
    const again = await api("/api/admin/sms/trackers", { token: staff, body: { kind: "phone", value: number }, lang: "en" });
    expect(again.status).toBe(422);
    expect(again.body.error.fields.value).toEqual(["Already followed"]);
    const badSender = await api("/api/admin/sms/trackers", { token: staff, body: { kind: "sender", value: "NOT A SENDER!" }, lang: "en" });
    expect(badSender.status).toBe(422);
    expect(badSender.body.error.fields.value[0]).toMatch(/1 to 11 letters and digits/);

    const list = await api("/api/admin/sms/trackers", { token: staff });
    expect(list.body.data.map((t: { id: string }) => t.id)).toContain(made.body.data.id);
    const found = await api(`/api/admin/sms/trackers/${made.body.data.id}`, { token: staff });
    expect(found.status).toBe(200);
    expect(found.body.data.map((m: { id: string }) => m.id)).toEqual([...ids].reverse());
    expect(found.body.data.map((m: { account_id: string }) => m.account_id)).toEqual([other.accountId, child.accountId]);

    const page = await staffWeb.page(`/admin/trackers/${made.body.data.id}`);
    expect(page.res.status).toBe(200);
    expect(page.html).toContain(await nameOf(child.accountId));
    expect(page.html).toContain(await nameOf(other.accountId));
    expect(page.html.indexOf(ids[1])).toBeLessThan(page.html.indexOf(ids[0]));

    // A sender tracker: the child's short code finds the child's message only.
    const bySender = await api("/api/admin/sms/trackers", { token: staff, body: { kind: "sender", value: senders[0].from } });
    expect(bySender.status, JSON.stringify(bySender.body)).toBe(201);
    const senderHits = await api(`/api/admin/sms/trackers/${bySender.body.data.id}`, { token: staff });
    expect(senderHits.body.data.map((m: { id: string }) => m.id)).toEqual([ids[0]]);

    for (const t of [reseller.token, other.token]) {
      expect((await api("/api/admin/sms/trackers", { token: t })).status).toBe(403);
      expect((await api("/api/admin/sms/trackers", { token: t, body: { kind: "phone", value: number } })).status).toBe(403);
      expect((await api(`/api/admin/sms/trackers/${made.body.data.id}`, { token: t, method: "DELETE" })).status).toBe(403);
    }
    for (const c of [reseller.client, other.client]) {
      for (const path of ["/admin/trackers", `/admin/trackers/${made.body.data.id}`]) {
        const res = await c.get(path);
        expect([res.status, location(res)]).toEqual([302, "/403"]);
      }
    }

    const gone = await api(`/api/admin/sms/trackers/${made.body.data.id}`, { token: staff, method: "DELETE" });
    expect(gone.status).toBe(200);
    expect((await api(`/api/admin/sms/trackers/${made.body.data.id}`, { token: staff })).status).toBe(404);
    expect((await api(`/api/admin/sms/trackers/${bySender.body.data.id}`, { token: staff, method: "DELETE" })).status).toBe(200);
  }, 60_000);

  it("the forms work without JavaScript (errors beside the field, redirect after post) and each change is audited with before/after", async () => {
    const number = nextNumber();
    await staffWeb.get("/admin/trackers");
    const bad = await staffWeb.post("/admin/trackers?index", { intent: "create", kind: "phone", value: "12" });
    expect(bad.status).toBe(422);
    expect(await bad.text()).toMatch(/role="alert"/);

    const ok = await staffWeb.post("/admin/trackers?index", { intent: "create", kind: "phone", value: number, label: "Formulário" });
    expect(ok.status).toBe(302);
    const to = location(ok)!;
    expect(to).toMatch(/^\/admin\/trackers\/[0-9a-f-]{36}$/);
    const id = to.split("/").pop()!;
    const list = await staffWeb.page("/admin/trackers");
    expect(list.html).toContain(number);
    const noCsrf = await staffWeb.post(`/admin/trackers/${id}`, { intent: "delete", id }, { csrf: null });
    expect(noCsrf.status).toBe(403);
    const del = await staffWeb.post(`/admin/trackers/${id}`, { intent: "delete", id });
    expect([del.status, location(del)]).toEqual([302, "/admin/trackers"]);
    expect((await staffWeb.page("/admin/trackers")).html).not.toContain(number);

    const audited = await api(`/api/admin/audit?action=sms_trackers.&user=staff@demo.example&limit=200`, { token: staff, lang: "en" });
    const mine = audited.body.data.filter((e: { changes: Array<{ field: string; before: string | null; after: string | null }> }) =>
      e.changes.some((c) => c.before === number || c.after === number),
    );
    expect(mine.map((e: { action: string }) => e.action)).toEqual(["sms_trackers.deleted", "sms_trackers.created"]);
    expect(mine[1].changes).toEqual(
      expect.arrayContaining([
        { field: "kind", before: null, after: "phone" },
        { field: "value", before: null, after: number },
        { field: "label", before: null, after: "Formulário" },
      ]),
    );
    expect(mine[0].changes).toEqual(expect.arrayContaining([{ field: "value", before: number, after: null }]));
    expect(mine[1].description).toBe("SMS tracker created");

    const screen = await staffWeb.page(`/admin/audit?action=sms_trackers.&user=staff@demo.example`);
    expect(screen.html).toMatch(new RegExp(`<del[^>]*>${number.replace("+", "\\+")}</del>`));
    expect(screen.html).toMatch(new RegExp(`<ins[^>]*>${number.replace("+", "\\+")}</ins>`));
  });
});
