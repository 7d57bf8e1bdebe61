/**
 * RCS agents, the fallback setting, templates (+groups) and keywords through the API (issue 21;
 * spec section 7 rcs/agents, rcs/agent, rcs/templates…, rcs/keywords): an agent request is
 * written `requested` with every carrier pending and audited; each wrong field is a 422 naming it,
 * translated; another account neither reads nor edits it; the platform's staff move it to
 * launched (Google's id made from its name) and set carriers, and then the account cannot edit
 * it; templates are checked as the content of a send and named uniquely; groups attach, move,
 * delete; keywords are unique per agent in any case. Roles: the policy's (a billing member reaches
 * none of it; a sales member works with agents and templates but not the account's settings).
 */
import { beforeAll, describe, expect, it } from "vitest";
import { api, login, registerPerson } from "../support/api";
import { query } from "../support/db";
import { addMember } from "../support/factories";
import { DEMO_PASSWORD } from "../support/web";

type Token = { token: string; accountId: string; userId: string };
let owner: Token;
let other: Token;
let billing: Token;
let sales: Token;
let staff: string;

const agentBody = (over: Record<string, unknown> = {}) => ({
  name: "Padaria Pão Quente",
  description: "Pães e doces do bairro",
  logo_url: "https://cdn.paoquente.example/logo.png",
  banner_url: "https://cdn.paoquente.example/banner.jpg",
  color: "#C0392B",
  phone: "(11) 3456-7890",
  website: "https://paoquente.example",
  email: "Contato@PaoQuente.example",
  privacy_url: "https://paoquente.example/privacidade",
  terms_url: "https://paoquente.example/termos",
  ...over,
});

async function person(tag: string): Promise<Token> {
  const p = await registerPerson(tag);
  return { token: (await login(p.email, p.password)).token, accountId: p.accountId, userId: p.userId };
}

beforeAll(async () => {
  owner = await person("rcsagents");
  other = await person("rcsagentsother");
  // A billing member of the owner's account: reads agents and templates, writes nothing.
  const b = await registerPerson("rcsagentsbilling");
  await addMember(owner.accountId, b.userId, { role: "billing" });
  billing = { token: (await login(b.email, b.password)).token, accountId: owner.accountId, userId: b.userId };
  // A sales member: works with RCS, but the account's settings are the owner's and admin's.
  const s = await registerPerson("rcsagentssales");
  await addMember(owner.accountId, s.userId, { role: "sales" });
  sales = { token: (await login(s.email, s.password)).token, accountId: owner.accountId, userId: s.userId };
  staff = (await login("staff@demo.example", DEMO_PASSWORD)).token;
});

describe("RCS agents", () => {
  let agentId: string;

  it("requests an agent: 201 with Location, requested, every carrier pending, normalized, audited; listed and current", async () => {
    const none = await api("/api/rcs/agent", { token: owner.token });
    expect(none.status).toBe(200);
    expect(none.body).toEqual({ data: null });

    const res = await api("/api/rcs/agents", { token: owner.token, body: agentBody() });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    agentId = res.body.data.id;
    expect(res.headers.get("location")).toBe(`/api/rcs/agents/${agentId}`);
    expect(res.body.data).toMatchObject({ status: "requested", phone: "+551134567890", email: "contato@paoquente.example", color: "#c0392b", rbm_agent_id: null });
    expect(res.body.data.launches.map((l: { carrier: string; state: string }) => [l.carrier, l.state])).toEqual([
      ["vivo", "pending"],
      ["claro", "pending"],
      ["tim", "pending"],
    ]);
    const audit = await query("SELECT user_id FROM audit_logs WHERE account_id = $1 AND action = 'rcs.agent_requested' AND meta->>'id' = $2", [owner.accountId, agentId]);
    expect(audit).toEqual([{ user_id: owner.userId }]);

    const list = await api("/api/rcs/agents", { token: owner.token });
    expect(list.body.data.map((a: { id: string }) => a.id)).toEqual([agentId]);
    expect(list.body.next_cursor).toBeNull();
    expect((await api("/api/rcs/agent", { token: owner.token })).body.data.id).toBe(agentId);
    expect((await api(`/api/rcs/agents/${agentId}`, { token: sales.token, account: owner.accountId })).status).toBe(200);
    expect((await api(`/api/rcs/agents/${agentId}`, { token: billing.token, account: owner.accountId })).status).toBe(403);
  });

  it("each wrong field is a 422 naming it, translated; nothing is written", async () => {
    const bad = await api("/api/rcs/agents", {
      token: owner.token,
      lang: "en",
      body: agentBody({
        name: "",
        logo_url: "https://cdn.example/logo.svg",
        banner_url: "http://cdn.example/b.png",
        color: "vermelho",
        phone: "12",
        website: "ftp://x",
        privacy_url: "",
      }),
    });
    expect(bad.status).toBe(422);
    expect(bad.body.error.fields).toEqual({
      name: ["Required field"],
      logo_url: ["Use an https link to a .jpg, .jpeg, .png, .gif or .webp image"],
      banner_url: ["Use an https link to a .jpg, .jpeg, .png, .gif or .webp image"],
      color: ["Use a color in the #RRGGBB format"],
      phone: ["Invalid phone number"],
      website: ["Use an address starting with https://"],
      privacy_url: ["Required field"],
    });
    expect(await query("SELECT 1 FROM rcs_agents WHERE account_id = $1", [owner.accountId])).toHaveLength(1);
  });

  it("another account can neither read nor edit the agent (404); a billing member cannot edit it (403)", async () => {
    expect((await api(`/api/rcs/agents/${agentId}`, { token: other.token })).status).toBe(404);
    expect((await api(`/api/rcs/agents/${agentId}`, { token: other.token, method: "PUT", body: agentBody({ name: "Invasor" }) })).status).toBe(404);
    expect((await api("/api/rcs/agents", { token: other.token })).body.data).toEqual([]);
    expect((await api(`/api/rcs/agents/${agentId}`, { token: billing.token, account: owner.accountId, method: "PUT", body: agentBody({ name: "Financeiro" }) })).status).toBe(403);
    expect((await api("/api/rcs/agents", { token: billing.token, account: owner.accountId, body: agentBody() })).status).toBe(403);
    expect((await api("/api/rcs/agents/nao-e-uuid", { token: owner.token })).status).toBe(404);
  });

  it("the account edits it while not launched; staff launch it (Google id from the name, carriers), then it is locked", async () => {
    const edited = await api(`/api/rcs/agents/${agentId}`, { token: owner.token, method: "PUT", body: agentBody({ description: "Pães, doces e cafés" }) });
    expect(edited.status, JSON.stringify(edited.body)).toBe(200);
    expect(edited.body.data.description).toBe("Pães, doces e cafés");

    // A customer is not staff; staff cannot skip review.
    expect((await api(`/api/admin/rcs/agents/${agentId}`, { token: owner.token, method: "PUT", body: { status: "launched" } })).status).toBe(403);
    const skip = await api(`/api/admin/rcs/agents/${agentId}`, { token: staff, method: "PUT", lang: "en", body: { status: "launched" } });
    expect(skip.status).toBe(422);
    expect(skip.body.error.fields).toEqual({ status: ["This status cannot follow the agent's current one"] });

    const listed = await api("/api/admin/rcs/agents?status=requested", { token: staff });
    expect(listed.body.data.some((a: { id: string; account_id: string }) => a.id === agentId && a.account_id === owner.accountId)).toBe(true);
    expect((await api(`/api/admin/rcs/agents/${agentId}`, { token: staff, method: "PUT", body: { status: "in_review" } })).status).toBe(200);
    const launched = await api(`/api/admin/rcs/agents/${agentId}`, { token: staff, method: "PUT", body: { status: "launched", vivo: "launched", claro: "launched" } });
    expect(launched.status, JSON.stringify(launched.body)).toBe(200);
    expect(launched.body.data.rbm_agent_id).toMatch(/^padariapaoquente(-[0-9a-f]{8})?@rbm\.goog$/);
    expect(launched.body.data.launches.map((l: { state: string }) => l.state)).toEqual(["launched", "launched", "pending"]);
    const audit = await query<{ meta: Record<string, unknown> }>("SELECT meta FROM audit_logs WHERE account_id = $1 AND action = 'rcs.agent_reviewed' ORDER BY created_at", [
      owner.accountId,
    ]);
    expect(audit.at(-1)?.meta).toMatchObject({ id: agentId, from: "in_review", status: "launched" });

    const locked = await api(`/api/rcs/agents/${agentId}`, { token: owner.token, method: "PUT", lang: "en", body: agentBody() });
    expect(locked.status).toBe(422);
    expect(locked.body.error.fields).toEqual({ form: ["A launched or suspended agent can no longer be edited"] });
    // A second agent, still requested: the launched one is the account's current agent.
    await api("/api/rcs/agents", { token: owner.token, body: agentBody({ name: "Pão Quente Delivery" }) });
    expect((await api("/api/rcs/agent", { token: owner.token })).body.data.id).toBe(agentId);
    // Google's ids are unique.
    const rbm = launched.body.data.rbm_agent_id;
    const second = (await api("/api/rcs/agents", { token: other.token, body: agentBody() })).body.data.id;
    await api(`/api/admin/rcs/agents/${second}`, { token: staff, method: "PUT", body: { status: "in_review" } });
    const clash = await api(`/api/admin/rcs/agents/${second}`, { token: staff, method: "PUT", lang: "en", body: { status: "launched", rbm_agent_id: rbm } });
    expect(clash.status).toBe(422);
    expect(clash.body.error.fields).toEqual({ rbm_agent_id: ["Another agent already has this Google id"] });
  });

  it("the SMS fallback: owners turn it on; a sales member reads it and is refused a change", async () => {
    expect((await api("/api/rcs/settings", { token: owner.token })).body.data).toEqual({ rcs_fallback_sms: false, can_edit: true });
    const on = await api("/api/rcs/settings", { token: owner.token, method: "PUT", body: { rcs_fallback_sms: true } });
    expect(on.status).toBe(200);
    expect(on.body.data.rcs_fallback_sms).toBe(true);
    expect(await query("SELECT rcs_fallback_sms FROM accounts WHERE id = $1", [owner.accountId])).toEqual([{ rcs_fallback_sms: true }]);
    expect((await api("/api/rcs/settings", { token: sales.token, account: owner.accountId })).body.data).toEqual({ rcs_fallback_sms: true, can_edit: false });
    expect((await api("/api/rcs/settings", { token: sales.token, account: owner.accountId, method: "PUT", body: { rcs_fallback_sms: false } })).status).toBe(403);
    expect(await query("SELECT rcs_fallback_sms FROM accounts WHERE id = $1", [owner.accountId])).toEqual([{ rcs_fallback_sms: true }]);
    expect((await api("/api/rcs/settings", { token: other.token })).body.data.rcs_fallback_sms).toBe(false);
  });

  it("keywords: unique per agent in any case, only on the account's agents", async () => {
    const k = await api("/api/rcs/keywords", { token: owner.token, body: { agent_id: agentId, keyword: "Horario", answer: "Das 7h às 19h" } });
    expect(k.status, JSON.stringify(k.body)).toBe(201);
    expect(k.body.data).toMatchObject({ keyword: "Horario", active: true, agent_id: agentId });
    const dup = await api("/api/rcs/keywords", { token: owner.token, lang: "en", body: { agent_id: agentId, keyword: "HORARIO", answer: "x" } });
    expect(dup.status).toBe(422);
    expect(dup.body.error.fields).toEqual({ keyword: ["This keyword already exists"] });
    const foreign = await api("/api/rcs/keywords", { token: other.token, lang: "en", body: { agent_id: agentId, keyword: "oi", answer: "x" } });
    expect(foreign.status).toBe(422);
    expect(foreign.body.error.fields).toEqual({ agent_id: ["Choose one of the options"] });
    const empty = await api("/api/rcs/keywords", { token: owner.token, lang: "en", body: { agent_id: agentId, keyword: "", answer: "" } });
    expect(empty.body.error.fields).toEqual({ keyword: ["Required field"], answer: ["Required field"] });
    expect((await api("/api/rcs/keywords", { token: billing.token, account: owner.accountId, body: { agent_id: agentId, keyword: "x", answer: "y" } })).status).toBe(403);
    const list = await api(`/api/rcs/keywords?agent_id=${agentId}`, { token: owner.token });
    expect(list.body.data.map((x: { keyword: string }) => x.keyword)).toEqual(["Horario"]);
    expect((await api("/api/rcs/keywords", { token: other.token })).body.data).toEqual([]);
    const off = await api(`/api/rcs/keywords/${k.body.data.id}`, { token: owner.token, method: "PUT", body: { keyword: "horario", answer: "Das 7h às 20h", active: false } });
    expect(off.body.data).toMatchObject({ keyword: "horario", active: false });
    expect((await api(`/api/rcs/keywords/${k.body.data.id}`, { token: other.token, method: "DELETE" })).status).toBe(404);
  });
});

describe("RCS templates and groups", () => {
  const card = { type: "card", messageText: "Pão de queijo", messageDescription: "Quentinho às 16h", imageUrl: "https://cdn.example/pao.jpg" };
  let templateId: string;
  let groupA: string;
  let groupB: string;

  it("saves a template checked as a send's content, names it uniquely (any case), lists and searches it", async () => {
    const res = await api("/api/rcs/templates", { token: owner.token, body: { name: "Fornada", content: card } });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    templateId = res.body.data.id;
    expect(res.body.data).toMatchObject({ name: "Fornada", content: card, group_ids: [] });
    const dup = await api("/api/rcs/templates", { token: owner.token, lang: "en", body: { name: "FORNADA", content: card } });
    expect(dup.status).toBe(422);
    expect(dup.body.error.fields).toEqual({ name: ["A template with this name already exists"] });
    const bad = await api("/api/rcs/templates", {
      token: owner.token,
      lang: "en",
      body: { name: "Carrossel", content: { type: "card-carousel", images: [{ title: "Só um", uri: "https://cdn.example/a.bmp" }] } },
    });
    expect(bad.status).toBe(422);
    expect(Object.keys(bad.body.error.fields).sort()).toEqual(["content.images", "content.images.0.uri"]);
    // Another account may use the same name.
    expect((await api("/api/rcs/templates", { token: other.token, body: { name: "Fornada", content: card } })).status).toBe(201);

    const list = await api("/api/rcs/templates/list", { token: owner.token, body: { q: "forn" } });
    expect(list.body.data.map((t: { id: string }) => t.id)).toEqual([templateId]);
    expect((await api("/api/rcs/templates/list", { token: owner.token, body: { q: "nada-disso" } })).body.data).toEqual([]);
    expect((await api(`/api/rcs/templates/${templateId}`, { token: other.token })).status).toBe(404);
  });

  it("edits by id (PUT rcs/templates); another account's id is not found; billing is refused, sales may", async () => {
    const ok = await api("/api/rcs/templates", {
      token: owner.token,
      method: "PUT",
      body: { id: templateId, name: "Fornada das 16h", content: { ...card, messageText: "Pão de queijo!" } },
    });
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    expect(ok.body.data).toMatchObject({ name: "Fornada das 16h", content: { messageText: "Pão de queijo!" } });
    expect((await api("/api/rcs/templates", { token: other.token, method: "PUT", body: { id: templateId, name: "x", content: card } })).status).toBe(404);
    expect((await api("/api/rcs/templates", { token: billing.token, account: owner.accountId, method: "PUT", body: { id: templateId, name: "x", content: card } })).status).toBe(
      403,
    );
    expect((await api("/api/rcs/templates/list", { token: billing.token, account: owner.accountId, body: {} })).status).toBe(403);
    expect((await api("/api/rcs/templates/list", { token: sales.token, account: owner.accountId, body: {} })).body.data[0].id).toBe(templateId);
  });

  it("groups: create (unique), attach, move (dettach to another), filter, delete keeping or deleting templates", async () => {
    groupA = (await api("/api/rcs/templates/groups", { token: owner.token, body: { name: "Padaria" } })).body.data.id;
    groupB = (await api("/api/rcs/templates/groups", { token: owner.token, body: { name: "Cafeteria" } })).body.data.id;
    expect((await api("/api/rcs/templates/groups", { token: owner.token, lang: "en", body: { name: "padaria" } })).body.error.fields).toEqual({
      name: ["A group with this name already exists"],
    });
    const attached = await api(`/api/rcs/templates/groups/${groupA}/templates/${templateId}`, { token: owner.token, method: "POST" });
    expect(attached.body.data.group_ids).toEqual([groupA]);
    expect((await api(`/api/rcs/templates/groups/${groupA}/templates/${templateId}`, { token: other.token, method: "POST" })).status).toBe(404);
    const moved = await api(`/api/rcs/templates/groups/dettach/${groupA}/${templateId}/${groupB}`, { token: owner.token, method: "POST" });
    expect(moved.body.data.group_ids).toEqual([groupB]);
    const groups = await api("/api/rcs/templates/groups", { token: owner.token });
    expect(groups.body.data.map((g: { name: string; template_ids: string[] }) => [g.name, g.template_ids])).toEqual([
      ["Cafeteria", [templateId]],
      ["Padaria", []],
    ]);
    expect((await api("/api/rcs/templates/list", { token: owner.token, body: { group_id: groupB } })).body.data.map((t: { id: string }) => t.id)).toEqual([templateId]);
    // DELETE rcs/templates/{group}/{id}: the template must be in that group.
    expect((await api(`/api/rcs/templates/${groupA}/${templateId}`, { token: owner.token, method: "DELETE" })).status).toBe(404);
    // Delete group A keeping; group B deleting its templates.
    expect((await api(`/api/rcs/templates/groups/${groupA}/keep`, { token: owner.token, method: "DELETE" })).body).toEqual({ deleted: 0 });
    expect((await api(`/api/rcs/templates/groups/${groupB}/templates`, { token: other.token, method: "DELETE" })).status).toBe(404);
    expect((await api(`/api/rcs/templates/groups/${groupB}/templates`, { token: owner.token, method: "DELETE" })).body).toEqual({ deleted: 1 });
    expect(await query("SELECT 1 FROM rcs_templates WHERE id = $1", [templateId])).toEqual([]);
  });

  it("deletes one template (DELETE rcs/templates/-/{id}) and several at once, never another account's", async () => {
    const mk = async (name: string, token = owner.token) =>
      (await api("/api/rcs/templates", { token, body: { name, content: { type: "text", messageText: name } } })).body.data.id as string;
    const a = await mk("Um");
    const b = await mk("Dois");
    const c = await mk("Três");
    const foreign = await mk("Alheio", other.token);
    expect((await api(`/api/rcs/templates/-/${a}`, { token: owner.token, method: "DELETE" })).body).toEqual({ deleted: 1 });
    expect((await api(`/api/rcs/templates/-/${foreign}`, { token: owner.token, method: "DELETE" })).status).toBe(404);
    expect((await api("/api/rcs/templates/delete", { token: owner.token, body: { ids: [b, c, foreign] } })).body).toEqual({ deleted: 2 });
    expect(await query("SELECT 1 FROM rcs_templates WHERE id = $1", [foreign])).toHaveLength(1);
  });
});

describe("the demo account's RCS", () => {
  it("has a launched agent on every carrier, a card and a carousel template and the horario keyword", async () => {
    const demo = (await login("owner@demo.example", DEMO_PASSWORD)).token;
    const agent = (await api("/api/rcs/agent", { token: demo })).body.data;
    expect(agent).toMatchObject({ status: "launched", rbm_agent_id: "lojademo@rbm.goog" });
    expect(agent.launches.every((l: { state: string }) => l.state === "launched")).toBe(true);
    const types = (await api("/api/rcs/templates/list", { token: demo, body: {} })).body.data.map((t: { content: { type: string } }) => t.content.type).sort();
    expect(types).toEqual(expect.arrayContaining(["card", "card-carousel"]));
    const keywords = (await api(`/api/rcs/keywords?agent_id=${agent.id}`, { token: demo })).body.data;
    expect(keywords.map((k: { keyword: string }) => k.keyword)).toContain("horario");
  });
});
