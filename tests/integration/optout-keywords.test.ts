/**
 * The account's inbound keywords (spec section 7 "keywords": GET/POST, PUT/DELETE keywords/{id},
 * DELETE keywords bulk): every new account starts with the defaults, each keyword is opt-out or
 * resume, duplicates (ignoring case and accents) and sentences are refused with translated errors,
 * the last opt-out keyword cannot go, and inbound MOs (through the simulator's signed /v1/inbound)
 * follow exactly the account's rows. The /sms/optouts screen edits them with plain form posts.
 */
import { beforeAll, describe, expect, inject, it } from "vitest";
import { api, login, registerPerson, type Person } from "../support/api";
import { query } from "../support/db";
import { signIn, type WebClient } from "../support/web";
import { setAccount, setMember } from "../support/factories";

type P = Person & { token: string };
type Kw = { id: string; keyword: string; action: "optout" | "resume" };

async function person(tag: string): Promise<P> {
  const p = await registerPerson(tag);
  await setAccount(p.accountId, { balance: 1000 });
  return { ...p, token: (await login(p.email, p.password)).token };
}
const keywords = async (p: P): Promise<Kw[]> => {
  const res = await api("/api/keywords", { token: p.token });
  expect(res.status).toBe(200);
  // Bounded (20 per action): always one page.
  expect(res.body.next_cursor).toBeNull();
  return res.body.data;
};
const idOf = async (p: P, word: string) => (await keywords(p)).find((k) => k.keyword === word)!.id;

let seq = Math.floor(Math.random() * 9_000_000);
const nextMobile = () => `+55119${String(40000000 + seq++)}`;

/** An MO from `from` through the simulator's signed webhook to us, to an unassigned short code (routed to the account that last sent to `from`); answers our result. */
async function mo(from: string, body: string) {
  const res = await fetch(new URL("/v1/inbound", inject("simulatorUrl")), {
    method: "POST",
    headers: { "Content-Type": "application/json", Authorization: `Bearer ${inject("simulatorApiKey")}` },
    body: JSON.stringify({ from, to: "29123", body }),
  });
  expect(res.status).toBe(202);
  const r = (await res.json()) as { answer: { result: string; accountId: string; keyword: { action: string; keyword: string } | null } };
  expect(r.answer.result).toBe("stored");
  return r.answer;
}
const optedOut = async (p: P, mobile: string) =>
  (await query("SELECT 1 FROM optouts WHERE account_id = $1 AND channel = 'sms' AND recipient = $2", [p.accountId, mobile])).length > 0;

let owner: P;
beforeAll(async () => {
  owner = await person("kwowner");
});

describe("keywords API", () => {
  it("a new account has the default keywords; add, change and delete them one by one", async () => {
    const start = await keywords(owner);
    expect(start.map((k) => [k.keyword, k.action])).toEqual([
      ["SAIR", "optout"],
      ["PARAR", "optout"],
      ["CANCELAR", "optout"],
      ["DESCADASTRAR", "optout"],
      ["REMOVER", "optout"],
      ["STOP", "optout"],
      ["VOLTAR", "resume"],
      ["START", "resume"],
    ]);

    const added = await api("/api/keywords", { token: owner.token, body: { keyword: " Chegá ", action: "optout" } });
    expect(added.status, JSON.stringify(added.body)).toBe(201);
    expect(added.body.data).toMatchObject({ keyword: "CHEGÁ", action: "optout" });
    expect(added.headers.get("location")).toBe(`/api/keywords/${added.body.data.id}`);
    expect((await api(added.headers.get("location")!, { token: owner.token })).body).toEqual(added.body);
    const quero = await api("/api/keywords", { token: owner.token, body: { keyword: "quero", action: "resume" } });
    expect(quero.status).toBe(201);

    const put = await api(`/api/keywords/${added.body.data.id}`, { token: owner.token, method: "PUT", body: { keyword: "basta", action: "optout" } });
    expect(put.status, JSON.stringify(put.body)).toBe(200);
    expect(put.body.data).toMatchObject({ id: added.body.data.id, keyword: "BASTA", action: "optout" });
    // START becomes an opt-out keyword.
    const start2 = await api(`/api/keywords/${await idOf(owner, "START")}`, { token: owner.token, method: "PUT", body: { keyword: "START", action: "optout" } });
    expect(start2.body.data.action).toBe("optout");
    expect((await api("/api/keywords?action=resume", { token: owner.token })).body.data.map((k: Kw) => k.keyword)).toEqual(["VOLTAR", "QUERO"]);

    const del = await api(`/api/keywords/${await idOf(owner, "REMOVER")}`, { token: owner.token, method: "DELETE" });
    expect(del.status).toBe(200);
    // The two lists of optouts/settings are the same rows.
    const settings = await api("/api/optouts/settings", { token: owner.token });
    expect(settings.body.data).toMatchObject({
      keywords: ["SAIR", "PARAR", "CANCELAR", "DESCADASTRAR", "STOP", "BASTA", "START"],
      resume_keywords: ["VOLTAR", "QUERO"],
    });
    expect(await query("SELECT keyword FROM optout_keywords WHERE account_id = $1 AND keyword = 'REMOVER'", [owner.accountId])).toEqual([]);
  });

  it("refuses duplicates (case and accents ignored), sentences and unknown actions with translated errors", async () => {
    const p = await person("kwvalid");
    const post = (body: unknown, lang = "pt-BR") => api("/api/keywords", { token: p.token, body, lang });

    const dup = await post({ keyword: "Sáir", action: "resume" });
    expect(dup.status).toBe(422);
    expect(dup.body.error).toMatchObject({ code: "VALIDATION", fields: { keyword: ["Esta palavra-chave já existe (maiúsculas e acentos não contam)"] } });
    expect((await post({ keyword: "stop", action: "optout" }, "en")).body.error.fields).toEqual({ keyword: ["This keyword already exists (case and accents do not count)"] });
    const sentence = await post({ keyword: "quero sair", action: "optout" });
    expect(sentence.status).toBe(422);
    expect(sentence.body.error.fields).toEqual({ keyword: ["Uma só palavra, sem espaços, até 30 caracteres"] });
    expect((await post({ keyword: "x".repeat(31), action: "optout" })).body.error.fields).toEqual({ keyword: ["Uma só palavra, sem espaços, até 30 caracteres"] });
    expect((await post({ keyword: "   ", action: "optout" })).body.error.fields).toEqual({ keyword: ["Campo obrigatório"] });
    expect(Object.keys((await post({ keyword: "BASTA", action: "tag" })).body.error.fields)).toEqual(["action"]);

    // Renaming onto another keyword is a duplicate too; the row is unchanged.
    const voltar = await idOf(p, "VOLTAR");
    const clash = await api(`/api/keywords/${voltar}`, { token: p.token, method: "PUT", body: { keyword: "parár", action: "resume" } });
    expect(clash.status).toBe(422);
    expect(Object.keys(clash.body.error.fields)).toEqual(["keyword"]);
    // Renaming a keyword to itself with other accents is fine (it is still the same keyword).
    const same = await api(`/api/keywords/${voltar}`, { token: p.token, method: "PUT", body: { keyword: "VOLTÁR", action: "resume" } });
    expect(same.status).toBe(200);
    // At most 20 of one action.
    for (let i = 0; i < 14; i++) expect((await post({ keyword: `PARE${i}`, action: "optout" })).status).toBe(201);
    const over = await post({ keyword: "PARE99", action: "optout" });
    expect(over.status).toBe(422);
    expect(over.body.error.fields).toEqual({ keyword: ["Valor máximo 20"] });
    expect((await keywords(p)).length).toBe(22);
  });

  it("the last opt-out keyword cannot go (delete, bulk delete or turned into resume); bulk deletes only the account's own", async () => {
    const p = await person("kwlast");
    const other = await person("kwother");
    const all = await keywords(p);
    const optout = all.filter((k) => k.action === "optout");
    const resume = all.filter((k) => k.action === "resume");

    const refused = await api("/api/keywords", { token: p.token, method: "DELETE", body: { ids: optout.map((k) => k.id) } });
    expect(refused.status).toBe(422);
    expect(refused.body.error.fields).toEqual({ ids: ["A conta precisa manter pelo menos uma palavra-chave de descadastro"] });
    expect(await keywords(p)).toHaveLength(8); // nothing deleted

    const otherId = (await keywords(other))[0].id;
    const bulk = await api("/api/keywords", {
      token: p.token,
      method: "DELETE",
      body: { ids: [...optout.slice(1).map((k) => k.id), ...resume.map((k) => k.id), otherId, "nope"] },
    });
    expect(bulk.status, JSON.stringify(bulk.body)).toBe(200);
    expect(bulk.body.deleted).toBe(7);
    expect((await keywords(p)).map((k) => k.keyword)).toEqual(["SAIR"]);
    expect(await keywords(other)).toHaveLength(8);

    const last = optout[0].id;
    const del = await api(`/api/keywords/${last}`, { token: p.token, method: "DELETE" });
    expect(del.status).toBe(422);
    expect(Object.keys(del.body.error.fields)).toEqual(["id"]);
    const flip = await api(`/api/keywords/${last}`, { token: p.token, method: "PUT", body: { keyword: "SAIR", action: "resume" } });
    expect(flip.status).toBe(422);
    expect(flip.body.error.fields).toEqual({ action: ["A conta precisa manter pelo menos uma palavra-chave de descadastro"] });

    // Another account's keyword is not found.
    expect((await api(`/api/keywords/${otherId}`, { token: p.token, method: "PUT", body: { keyword: "X", action: "optout" } })).status).toBe(404);
    expect((await api(`/api/keywords/${otherId}`, { token: p.token, method: "DELETE" })).status).toBe(404);
    expect((await api("/api/keywords/not-a-uuid", { token: p.token, method: "DELETE" })).status).toBe(404);
    // A role without /sms/optouts is refused.
    await setMember(other.accountId, other.userId, { role: "developer" });
    expect((await api("/api/keywords", { token: other.token })).status).toBe(403);
    expect((await api("/api/keywords", { token: other.token, body: { keyword: "OI", action: "optout" } })).status).toBe(403);
  });
});

describe("inbound MOs follow the account's keywords", () => {
  it("an added keyword opts out (any case, accents, spaces), a deleted one no longer does, an added resume keyword opts back in", async () => {
    const p = await person("kwmo");
    const mobile = nextMobile();
    const sent = await api("/api/sms/messages", { token: p.token, body: { to: [mobile], body: "Oferta da semana" } });
    expect(sent.status, JSON.stringify(sent.body)).toBe(200);

    // Before: "basta" is nothing, "sair" opts out (a default).
    expect((await mo(mobile, "basta")).keyword).toBeNull();
    expect(await optedOut(p, mobile)).toBe(false);

    expect((await api("/api/keywords", { token: p.token, body: { keyword: "BASTA", action: "optout" } })).status).toBe(201);
    expect((await api("/api/keywords", { token: p.token, body: { keyword: "QUERÓ", action: "resume" } })).status).toBe(201);
    expect((await api(`/api/keywords/${await idOf(p, "SAIR")}`, { token: p.token, method: "DELETE" })).status).toBe(200);

    expect((await mo(mobile, "  Bastá ")).keyword).toEqual({ action: "optout", keyword: "BASTA" });
    expect(await optedOut(p, mobile)).toBe(true);
    const [o] = await query<{ source: string; keyword: string }>("SELECT source, keyword FROM optouts WHERE account_id = $1 AND recipient = $2", [p.accountId, mobile]);
    expect(o).toEqual({ source: "keyword", keyword: "BASTA" });

    // "quero" (accents ignored both ways) opts back in.
    expect((await mo(mobile, "quero")).keyword).toEqual({ action: "resume", keyword: "QUERÓ" });
    expect(await optedOut(p, mobile)).toBe(false);

    // SAIR was deleted: it is just a message now. A sentence is never a keyword.
    expect((await mo(mobile, "SAIR")).keyword).toBeNull();
    expect((await mo(mobile, "basta já")).keyword).toBeNull();
    expect(await optedOut(p, mobile)).toBe(false);

    // PARAR changed into a resume keyword opts back in, not out.
    await api("/api/keywords", { token: p.token, body: { keyword: "PARE", action: "optout" } });
    expect((await mo(mobile, "pare")).keyword).toEqual({ action: "optout", keyword: "PARE" });
    const parar = await idOf(p, "PARAR");
    expect((await api(`/api/keywords/${parar}`, { token: p.token, method: "PUT", body: { keyword: "PARAR", action: "resume" } })).status).toBe(200);
    expect((await mo(mobile, "parar")).keyword).toEqual({ action: "resume", keyword: "PARAR" });
    expect(await optedOut(p, mobile)).toBe(false);
  });
});

describe("/sms/optouts keyword section (no JavaScript)", () => {
  let web: WebClient;
  let p: P;
  beforeAll(async () => {
    p = await person("kwweb");
    web = await signIn(p.email, p.password);
  });

  it("lists, adds, refuses a duplicate with the translated error, changes and deletes", async () => {
    const page = await web.page("/sms/optouts");
    expect(page.res.status).toBe(200);
    expect(page.html).toContain("Palavras-chave de resposta");
    expect(page.html).toContain('data-keyword="DESCADASTRAR"');

    const added = await web.post("/sms/optouts", { intent: "keyword-add", keyword: "basta", action: "optout" });
    expect(added.status).toBe(302);
    const row = (await keywords(p)).find((k) => k.keyword === "BASTA");
    expect(row).toMatchObject({ action: "optout" });

    const dup = await web.post("/sms/optouts", { intent: "keyword-add", keyword: "Bastá", action: "resume" });
    expect(dup.status).toBe(422);
    expect(await dup.text()).toContain("Esta palavra-chave já existe (maiúsculas e acentos não contam)");
    const sentence = await web.post("/sms/optouts", { intent: "keyword-add", keyword: "não quero", action: "optout" });
    expect(sentence.status).toBe(422);
    expect(await sentence.text()).toContain("Uma só palavra, sem espaços, até 30 caracteres");

    const changed = await web.post("/sms/optouts", { intent: "keyword-update", id: row!.id, keyword: "chega", action: "resume" });
    expect(changed.status).toBe(302);
    expect((await keywords(p)).find((k) => k.id === row!.id)).toMatchObject({ keyword: "CHEGA", action: "resume" });
    const clash = await web.post("/sms/optouts", { intent: "keyword-update", id: row!.id, keyword: "stop", action: "resume" });
    expect(clash.status).toBe(422);
    expect(await clash.text()).toContain("Esta palavra-chave já existe");

    const gone = await web.post("/sms/optouts", { intent: "keyword-delete", id: row!.id });
    expect(gone.status).toBe(302);
    expect((await keywords(p)).some((k) => k.id === row!.id)).toBe(false);

    const ids = (await keywords(p)).filter((k) => ["STOP", "START"].includes(k.keyword)).map((k) => k.id);
    const form = new URLSearchParams([["csrf", web.csrf], ["intent", "keyword-bulk"], ...ids.map((id) => ["ids", id])]);
    const bulk = await web.request("/sms/optouts", { method: "POST", body: form, headers: { "Content-Type": "application/x-www-form-urlencoded" } });
    expect(bulk.status).toBe(302);
    expect((await keywords(p)).map((k) => k.keyword)).toEqual(["SAIR", "PARAR", "CANCELAR", "DESCADASTRAR", "REMOVER", "VOLTAR"]);
    const none = await web.post("/sms/optouts", { intent: "keyword-bulk" });
    expect(none.status).toBe(422);
  });
});
