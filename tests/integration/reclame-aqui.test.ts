/**
 * Reclame Aqui complaints (issue 23, ADR 067) against the simulator's loopback RA peer
 * (api/simulator/reclame-aqui.ts): connecting checks the credentials on RA (a refused secret is a
 * translated error, nothing kept) and imports the company's complaints; a second sync doubles
 * nothing and picks up what changed on RA; the worker syncs on its schedule; public and private
 * answers reach the peer and appear on the complaint (a refused one writes nothing); the report's
 * figures are those of the data; the screens work without JavaScript; another account sees none of
 * it (404) and roles are refused as the policy says.
 */
import { beforeAll, describe, expect, inject, it } from "vitest";
import { api, login, registerPerson } from "../support/api";
import { query } from "../support/db";
import { DEMO_PASSWORD, location, signedInCustomer, type WebCustomer } from "../support/web";

type Who = { token: string; accountId: string };
let a: Who;
let b: Who;
const as = (who: Who, path: string, o: { method?: string; body?: unknown; lang?: string } = {}) => api(path, { token: who.token, ...o });

async function person(tag: string): Promise<Who> {
  const p = await registerPerson(tag);
  return { accountId: p.accountId, token: (await login(p.email, p.password)).token };
}

/** A company of the peer of its own (each holds six seeded complaints on first use). */
const company = () => String(Math.floor(Math.random() * 9e11) + 1e11);

async function sim(path: string, body?: unknown) {
  const res = await fetch(new URL(`/ra/_sim${path}`, inject("simulatorUrl")), {
    method: body === undefined ? "GET" : "POST",
    headers: { Authorization: `Bearer ${inject("simulatorApiKey")}`, "Content-Type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  expect(res.status).toBeLessThan(300);
  return (await res.json()) as any;
}

const complaintsOf = (accountId: string) =>
  query<{ ra_id: string; status: string; score: number | null }>(`SELECT ra_id, status, score FROM ra_complaints WHERE account_id = $1 ORDER BY ra_id`, [accountId]);

let companyA: string;

beforeAll(async () => {
  [a, b] = await Promise.all([person("ra-a"), person("ra-b")]);
  companyA = company();
});

describe("connecting and syncing against the RA peer", () => {
  it("refuses credentials RA refuses, translated, and keeps nothing", async () => {
    const res = await as(a, "/api/ra/connection", { method: "PUT", body: { company_id: companyA, client_id: "acme", client_secret: "invalid-secret" }, lang: "en" });
    expect(res.status).toBe(422);
    expect(res.body.error.fields).toEqual({ client_secret: ["Reclame Aqui refused these credentials"] });
    const pt = await as(a, "/api/ra/connection", { method: "PUT", body: { company_id: "acme", client_id: "", client_secret: "x" }, lang: "pt-BR" });
    expect(pt.status).toBe(422);
    expect(pt.body.error.fields.company_id).toEqual(["Use o id numérico da empresa (até 12 dígitos)"]);
    expect(pt.body.error.fields.client_id).toEqual(["Campo obrigatório"]);
    expect(await query(`SELECT 1 FROM ra_connections WHERE account_id = $1`, [a.accountId])).toHaveLength(0);
    expect((await as(a, "/api/ra/connection")).body).toEqual({ data: null });
  });

  it("connects (the secret sealed at rest, never returned) and imports the company's complaints at once", async () => {
    const res = await as(a, "/api/ra/connection", { method: "PUT", body: { company_id: companyA, client_id: "acme", client_secret: "s3cr3t-key" } });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ company_id: companyA, client_id: "acme", status: "connected" });
    expect(res.body.data.last_sync_at).not.toBeNull();
    expect(JSON.stringify(res.body)).not.toContain("s3cr3t-key");
    const [stored] = await query<{ client_secret_sealed: string }>(`SELECT client_secret_sealed FROM ra_connections WHERE account_id = $1`, [a.accountId]);
    expect(stored.client_secret_sealed).not.toContain("s3cr3t-key");
    const list = await complaintsOf(a.accountId);
    expect(list).toHaveLength(6);
    expect(list.map((c) => c.status).sort()).toEqual(["answered", "evaluated", "evaluated", "replied", "unanswered", "unanswered"]);
  });

  it("a second sync duplicates nothing; a change and a new complaint on RA are picked up", async () => {
    const again = await as(a, "/api/ra/sync", { method: "POST" });
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ imported: 0, updated: 0 });
    expect(await complaintsOf(a.accountId)).toHaveLength(6);

    const page = await as(a, "/api/ra/complaints?status=unanswered");
    const target = page.body.data[0];
    await sim(`/companies/${companyA}/tickets/${target.ra_id}/reply`, { message: "Ainda aguardo." });
    const added = await sim(`/companies/${companyA}/tickets`, { title: "Cobrança em dobro no boleto", content: "Paguei duas vezes.", name: "Gil Nunes" });
    await as(a, "/api/ra/sync", { method: "POST" });
    const after = await complaintsOf(a.accountId);
    expect(after).toHaveLength(7);
    expect(after.filter((c) => c.ra_id === target.ra_id)).toEqual([expect.objectContaining({ status: "replied" })]);
    expect(after.some((c) => c.ra_id === String(added.id) && c.status === "unanswered")).toBe(true);
    const detail = await as(a, `/api/ra/complaints/${target.id}`);
    expect(detail.body.interactions.map((i: any) => [i.author, i.visibility, i.body])).toContainEqual(["consumer", "public", "Ainda aguardo."]);
    // Idempotent interactions too: another sync keeps one of each.
    await as(a, "/api/ra/sync", { method: "POST" });
    expect((await as(a, `/api/ra/complaints/${target.id}`)).body.interactions).toHaveLength(detail.body.interactions.length);
  });

  it("the worker syncs on its schedule", async () => {
    const added = await sim(`/companies/${companyA}/tickets`, { title: "Agendada", content: "Pela agenda.", name: "Hugo" });
    await expect.poll(async () => (await complaintsOf(a.accountId)).some((c) => c.ra_id === String(added.id)), { timeout: 45_000, interval: 500 }).toBe(true);
  });

  it("lists with filters and keyset pages", async () => {
    const p1 = await as(a, "/api/ra/complaints?limit=3");
    expect(p1.body.data).toHaveLength(3);
    expect(p1.body.next_cursor).toBeTruthy();
    const p2 = await as(a, `/api/ra/complaints?limit=3&cursor=${p1.body.next_cursor}`);
    const p3 = await as(a, `/api/ra/complaints?limit=3&cursor=${p2.body.next_cursor}`);
    const ids = [...p1.body.data, ...p2.body.data, ...p3.body.data].map((c: any) => c.id);
    expect(new Set(ids).size).toBe(8);
    expect(p3.body.next_cursor).toBeNull();
    const q = await as(a, "/api/ra/complaints?q=boleto");
    expect(q.body.data.map((c: any) => c.title)).toEqual(["Cobrança em dobro no boleto"]);
    expect((await as(a, "/api/ra/complaints?status=nope", { lang: "en" })).status).toBe(422);
  });
});

describe("answering", () => {
  it("a public answer reaches the peer and the complaint becomes answered; a private one keeps its status", async () => {
    const [c] = (await as(a, "/api/ra/complaints?status=unanswered&limit=1")).body.data;
    const pub = await as(a, `/api/ra/complaints/${c.id}/answers`, { body: { visibility: "public", message: "Olá, já resolvemos." } });
    expect(pub.status).toBe(200);
    expect(pub.body).toMatchObject({ author: "company", visibility: "public", body: "Olá, já resolvemos." });
    const priv = await as(a, `/api/ra/complaints/${c.id}/answers`, { body: { visibility: "private", message: "Seu protocolo é 123." } });
    expect(priv.status).toBe(200);
    const got = (await sim(`/companies/${companyA}/answers`)).data.filter((x: any) => String(x.ticket) === c.ra_id);
    expect(got.map((x: any) => [x.visibility, x.message, String(x.interaction_id)])).toEqual([
      ["public", "Olá, já resolvemos.", pub.body.ra_id],
      ["private", "Seu protocolo é 123.", priv.body.ra_id],
    ]);
    const detail = (await as(a, `/api/ra/complaints/${c.id}`)).body;
    expect(detail.status).toBe("answered");
    expect(detail.first_answer_at).not.toBeNull();
    expect(detail.interactions.filter((i: any) => i.author === "company").map((i: any) => i.visibility)).toEqual(["public", "private"]);
    // The next sync brings the same interactions from RA: still one of each.
    await as(a, "/api/ra/sync", { method: "POST" });
    expect((await as(a, `/api/ra/complaints/${c.id}`)).body.interactions).toHaveLength(detail.interactions.length);
  });

  it("refuses an empty message and a public answer to an evaluated complaint, translated, writing nothing", async () => {
    const [c] = (await as(a, "/api/ra/complaints?status=evaluated&limit=1")).body.data;
    const before = (await as(a, `/api/ra/complaints/${c.id}`)).body.interactions.length;
    const empty = await as(a, `/api/ra/complaints/${c.id}/answers`, { body: { visibility: "public", message: "  " }, lang: "en" });
    expect(empty.status).toBe(422);
    expect(empty.body.error.fields.message).toEqual(["Required field"]);
    const closed = await as(a, `/api/ra/complaints/${c.id}/answers`, { body: { visibility: "public", message: "Oi" }, lang: "en" });
    expect(closed.status).toBe(422);
    expect(closed.body.error.fields.message).toEqual(["The consumer already evaluated this complaint: it takes no public answer"]);
    expect((await as(a, `/api/ra/complaints/${c.id}`)).body.interactions).toHaveLength(before);
    expect((await sim(`/companies/${companyA}/answers`)).data.some((x: any) => String(x.ticket) === c.ra_id && x.message === "Oi")).toBe(false);
  });
});

describe("the report", () => {
  it("computes the reputation figures from the imported complaints", async () => {
    const b2 = await person("ra-report");
    const co = company();
    await as(b2, "/api/ra/connection", { method: "PUT", body: { company_id: co, client_id: "rep", client_secret: "secret-123" } });
    const rows = await query<{ status: string; created: Date; first: Date | null; score: number | null; resolved: boolean | null; would: boolean | null }>(
      `SELECT status, ra_created_at AS created, first_answer_at AS first, score, resolved, would_return AS would FROM ra_complaints WHERE account_id = $1`,
      [b2.accountId],
    );
    expect(rows).toHaveLength(6);
    const answered = rows.filter((r) => r.first);
    const evaluated = rows.filter((r) => r.status === "evaluated");
    const r = (await as(b2, "/api/ra/report")).body;
    const pct = (n: number, d: number) => Math.round((1000 * n) / d) / 10;
    expect(r.overall).toEqual({
      total: 6,
      answered: answered.length,
      answered_pct: pct(answered.length, 6),
      avg_answer_seconds: Math.round(answered.reduce((s, x) => s + (x.first!.getTime() - x.created.getTime()) / 1000, 0) / answered.length),
      evaluated: 2,
      avg_score: 6,
      would_return_pct: 50,
      solution_pct: 50,
    });
    expect(answered).toHaveLength(4);
    expect(evaluated.map((e) => e.score).sort()).toEqual([3, 9]);
    expect(r.months.reduce((s: number, m: any) => s + m.total, 0)).toBe(6);
    expect(r.months.map((m: any) => m.month)).toEqual([...r.months.map((m: any) => m.month)].sort().reverse());
  });
});

describe("scope and roles", () => {
  it("another account sees none of it (404) and has no connection", async () => {
    const [c] = (await as(a, "/api/ra/complaints?limit=1")).body.data;
    expect((await as(b, `/api/ra/complaints/${c.id}`)).status).toBe(404);
    expect((await as(b, `/api/ra/complaints/${c.id}/answers`, { body: { visibility: "private", message: "x" } })).status).toBe(404);
    expect((await as(b, "/api/ra/complaints")).body.data).toEqual([]);
    expect((await as(b, "/api/ra/report")).body.overall.total).toBe(0);
    expect((await as(b, "/api/ra/sync", { method: "POST", lang: "en" })).body.error.fields).toEqual({ connection: ["Connect the account to Reclame Aqui first"] });
  });

  it("roles: sales reads, syncs and answers but may not connect (owner and admin); a developer and a manager are refused /ra", async () => {
    const sales = await signedInCustomer("ra-sales", { role: "sales" });
    const salesWho = { token: (await login(sales.email, DEMO_PASSWORD)).token, accountId: sales.accountId };
    expect((await as(salesWho, "/api/ra/complaints")).status).toBe(200);
    expect((await as(salesWho, "/api/ra/connection", { method: "PUT", body: { company_id: company(), client_id: "x", client_secret: "secret-123" } })).status).toBe(403);
    expect((await as(salesWho, "/api/ra/connection", { method: "DELETE" })).status).toBe(403);
    expect((await as(salesWho, "/api/ra/sync", { method: "POST", lang: "en" })).status).toBe(422);
    expect((await sales.client.get("/ra")).status).toBe(200);
    for (const role of ["developer", "manager"] as const) {
      const p = await signedInCustomer(`ra-${role}`, { role });
      const token = (await login(p.email, DEMO_PASSWORD)).token;
      expect((await as({ token, accountId: p.accountId }, "/api/ra/complaints")).status).toBe(403);
      expect((await as({ token, accountId: p.accountId }, "/api/ra/report")).status).toBe(403);
      expect(location(await p.client.get("/ra/report"))).toBe("/403");
    }
  });
});

describe("the screens without JavaScript", () => {
  let web: WebCustomer;
  const co = company();

  beforeAll(async () => {
    web = await signedInCustomer("ra-web");
  });

  it("/ra: a refused secret is shown next to its field; connecting imports; Sync now redirects with the counts", async () => {
    const first = await web.client.page("/ra");
    expect(first.res.status).toBe(200);
    expect(first.html).toContain('name="client_secret"');
    const bad = await web.client.post("/ra?index", { intent: "connect", company_id: co, client_id: "web", client_secret: "invalid-secret" });
    expect(bad.status).toBe(422);
    const badHtml = await bad.text();
    expect(badHtml).toContain("O Reclame Aqui recusou estas credenciais");
    expect(badHtml).toContain(`value="${co}"`);
    const ok = await web.client.post("/ra?index", { intent: "connect", company_id: co, client_id: "web", client_secret: "web-secret-1" });
    expect(ok.status).toBe(302);
    expect(location(ok)).toBe("/ra");
    const page = (await web.client.page("/ra")).html;
    expect(page).toContain('data-connection="connected"');
    expect(page).toMatch(/data-count="total"[^>]*>6</);
    const sync = await web.client.post("/ra?index", { intent: "sync" });
    expect(sync.status).toBe(302);
  });

  it("/ra/all filters, /ra/view-ticket answers publicly and privately, /ra/report shows the figures", async () => {
    const all = (await web.client.page("/ra/all?status=unanswered")).html;
    const ids = [...all.matchAll(/href="\/ra\/view-ticket\/([0-9a-f-]{36})"/g)].map((m) => m[1]);
    expect(ids).toHaveLength(2);
    const path = `/ra/view-ticket/${ids[0]}`;
    expect((await web.client.page(path)).html).toContain("Publicar resposta");
    const empty = await web.client.post(path, { visibility: "public", message: "" });
    expect(empty.status).toBe(422);
    expect(await empty.text()).toContain("Campo obrigatório");
    const pub = await web.client.post(path, { visibility: "public", message: "Resposta pela tela" });
    expect(pub.status).toBe(302);
    const priv = await web.client.post(path, { visibility: "private", message: "Mensagem privada pela tela" });
    expect(priv.status).toBe(302);
    const html = (await web.client.page(path)).html;
    expect(html).toContain("Resposta pela tela");
    expect(html).toContain("Mensagem privada pela tela");
    expect(html).toContain('data-visibility="private"');
    const got = (await sim(`/companies/${co}/answers`)).data.map((x: any) => x.message);
    expect(got).toEqual(["Resposta pela tela", "Mensagem privada pela tela"]);
    const report = (await web.client.page("/ra/report")).html;
    expect(report).toMatch(/data-figure="total"[^>]*>6</);
    expect(report).toMatch(/data-figure="solution_pct"[^>]*>50 %</);
    const other = await signedInCustomer("ra-web-b");
    expect((await other.client.get(path)).status).toBe(404);
  });
});
