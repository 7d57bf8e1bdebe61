/**
 * The RCS screens of agents, templates, keywords, the overview, deny list and opt-outs, driven like
 * a browser with JavaScript off (plain GETs and form posts with the CSRF field), in pt-BR: the
 * request form refuses a wrong field next to it and creates the agent; the agent's page shows its
 * status and carriers and manages its keywords; another account gets 404; staff launch it on
 * /admin/rcs/agents; the template editor saves a carousel from its slots and names a refused slot;
 * the list searches and bulk-deletes; groups are created; the overview counts this month's RCS
 * messages and their cost and turns the SMS fallback on; RCS opt-outs are channel rcs.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { query } from "../support/db";
import { makeMessages } from "../support/factories";
import { location, signedInCustomer, signIn, type WebCustomer } from "../support/web";

const visible = (html: string) => html.replace(/<script[\s\S]*?<\/script>/g, "");
async function page(c: WebCustomer["client"], path: string) {
  const { res, html } = await c.page(path);
  return { res, html: visible(html) };
}
const agentFields = (over: Record<string, string> = {}) => ({
  intent: "request",
  name: "Doceria Açúcar",
  description: "Bolos e doces",
  logo_url: "https://cdn.acucar.example/logo.png",
  banner_url: "https://cdn.acucar.example/banner.jpg",
  color: "#aa3366",
  phone: "11 3456-7890",
  website: "https://acucar.example",
  email: "oi@acucar.example",
  privacy_url: "https://acucar.example/privacidade",
  terms_url: "https://acucar.example/termos",
  ...over,
});

let owner: WebCustomer;
let other: WebCustomer;
let agentId: string;

beforeAll(async () => {
  owner = await signedInCustomer("rcsweb");
  other = await signedInCustomer("rcswebother");
});

describe("RCS screens (JavaScript off)", () => {
  it("the overview starts empty: no agent, no message this month", async () => {
    const { res, html } = await page(owner.client, "/rcs");
    expect(res.status).toBe(200);
    expect(html).toContain('data-empty="agents"');
    expect(html).toContain('data-empty="messages"');
    expect(html).toContain("SMS de contingência");
  });

  it("the request form names a wrong field, then creates the agent and opens it", async () => {
    const bad = await owner.client.post("/rcs/request", agentFields({ logo_url: "https://cdn.acucar.example/logo.svg" }));
    expect(bad.status).toBe(422);
    expect(visible(await bad.text())).toContain("Use um link https de uma imagem .jpg, .jpeg, .png, .gif ou .webp");
    expect(await query("SELECT 1 FROM rcs_agents WHERE account_id = $1", [owner.accountId])).toEqual([]);

    const res = await owner.client.post("/rcs/request", agentFields());
    expect(res.status, await res.clone().text()).toBe(302);
    const path = location(res)!;
    expect(path).toMatch(/^\/rcs\/agents\/[0-9a-f-]{36}$/);
    agentId = path.split("/").pop()!;
    const { html } = await page(owner.client, path);
    expect(html).toContain("Doceria Açúcar");
    expect(html).toContain('data-status="requested"');
    expect(html).toMatch(/data-carrier="vivo" data-state="pending"/);
    // Still editable: the edit form is there.
    expect(html).toContain("Editar agente");
    const list = await page(owner.client, "/rcs/agents");
    expect(list.html).toContain(`data-agent-id="${agentId}"`);
  });

  it("another account gets 404 for the agent, and an empty list", async () => {
    expect((await other.client.get(`/rcs/agents/${agentId}`)).status).toBe(404);
    const list = await page(other.client, "/rcs/agents");
    expect(list.html).not.toContain(agentId);
    expect(list.html).toContain("data-empty");
  });

  it("edits the agent, and manages its keywords: add, duplicate refused, deactivate, delete", async () => {
    const edited = await owner.client.post(`/rcs/agents/${agentId}`, { ...agentFields({ description: "Bolos, doces e salgados" }), intent: "edit" });
    expect(edited.status).toBe(302);
    expect(await query("SELECT description FROM rcs_agents WHERE id = $1", [agentId])).toEqual([{ description: "Bolos, doces e salgados" }]);

    const add = await owner.client.post(`/rcs/agents/${agentId}`, { intent: "keyword-add", keyword: "cardapio", answer: "Veja em acucar.example/cardapio", active: "on" });
    expect(add.status).toBe(302);
    const dup = await owner.client.post(`/rcs/agents/${agentId}`, { intent: "keyword-add", keyword: "CARDAPIO", answer: "x", active: "on" });
    expect(dup.status).toBe(422);
    expect(visible(await dup.text())).toContain("Esta palavra-chave já existe");
    const [k] = await query<{ id: string; active: boolean }>("SELECT id, active FROM rcs_keywords WHERE agent_id = $1", [agentId]);
    expect(k.active).toBe(true);
    expect((await owner.client.post(`/rcs/agents/${agentId}`, { intent: "keyword-toggle", id: k.id })).status).toBe(302);
    expect(await query("SELECT active FROM rcs_keywords WHERE id = $1", [k.id])).toEqual([{ active: false }]);
    const { html } = await page(owner.client, `/rcs/agents/${agentId}`);
    expect(html).toContain(`data-keyword-id="${k.id}"`);
    expect(html).toContain('data-active="false"');
    // Another account cannot delete it through its own agent page.
    expect((await other.client.post(`/rcs/agents/${agentId}`, { intent: "delete", id: k.id })).status).toBe(404);
    expect((await owner.client.post(`/rcs/agents/${agentId}`, { intent: "delete", id: k.id })).status).toBe(302);
    expect(await query("SELECT 1 FROM rcs_keywords WHERE id = $1", [k.id])).toEqual([]);
  });

  it("staff launch the agent on /admin/rcs/agents; the account then sees it launched and locked", async () => {
    const staff = await signIn("staff@demo.example");
    const { res, html } = await page(staff, "/admin/rcs/agents?status=requested");
    expect(res.status).toBe(200);
    expect(html).toContain(`data-agent-id="${agentId}"`);
    const review = (status: string, extra: Record<string, string> = {}) => staff.post("/admin/rcs/agents", { intent: "review", id: agentId, status, ...extra });
    expect((await review("in_review")).status).toBe(302);
    expect((await review("launched", { rbm_agent_id: "", vivo: "launched", claro: "launched", tim: "launched" })).status).toBe(302);
    const detail = await page(owner.client, `/rcs/agents/${agentId}`);
    expect(detail.html).toContain('data-status="launched"');
    expect(detail.html).toMatch(/data-rbm-agent-id="?"?[^>]*>doceriaacucar(-[0-9a-f]{8})?@rbm\.goog/);
    expect(detail.html).not.toContain("Editar agente");
    // A customer cannot open the staff screen.
    expect((await owner.client.get("/admin/rcs/agents")).status).toBe(302);
  });

  it("the template editor saves a carousel from its slots, names a refused slot, and the list searches and bulk-deletes", async () => {
    const one = await owner.client.post("/rcs/templates/new", {
      intent: "save",
      name: "Vitrine",
      type: "card-carousel",
      "images[0].title": "Bolo",
      "images[0].uri": "https://cdn.acucar.example/bolo.jpg",
    });
    expect(one.status).toBe(422);
    expect(visible(await one.text())).toContain("Um carrossel precisa de pelo menos 2 cards");

    const badSlot = await owner.client.post("/rcs/templates/new", {
      intent: "save",
      name: "Vitrine",
      type: "card-carousel",
      "images[0].title": "Bolo",
      "images[0].uri": "https://cdn.acucar.example/bolo.bmp",
      "images[1].title": "Torta",
    });
    expect(badSlot.status).toBe(422);
    const badHtml = visible(await badSlot.text());
    expect(badHtml).toContain("URL de mídia inválida");
    expect(badHtml).toMatch(/id="rcs-t-images-0--uri-e"/);

    const ok = await owner.client.post("/rcs/templates/new", {
      intent: "save",
      name: "Vitrine",
      type: "card-carousel",
      "images[0].title": "Bolo",
      "images[0].uri": "https://cdn.acucar.example/bolo.jpg",
      "images[0].suggestions[0].type": "url",
      "images[0].suggestions[0].text": "Comprar",
      "images[0].suggestions[0].value": "https://acucar.example/bolo",
      "images[1].title": "Torta",
      "images[1].suggestions[0].type": "reply",
      "suggestions[0].type": "dial",
      "suggestions[0].text": "Ligar",
      "suggestions[0].value": "+551134567890",
    });
    expect(ok.status, await ok.clone().text()).toBe(302);
    const id = new URL(location(ok)!, "http://x").searchParams.get("id")!;
    const [stored] = await query<{ content: Record<string, unknown> }>("SELECT content FROM rcs_templates WHERE id = $1 AND account_id = $2", [id, owner.accountId]);
    expect(stored.content).toEqual({
      type: "card-carousel",
      suggestions: [{ type: "dial", text: "Ligar", phoneNumber: "+551134567890" }],
      images: [
        { title: "Bolo", uri: "https://cdn.acucar.example/bolo.jpg", suggestions: [{ type: "url", text: "Comprar", url: "https://acucar.example/bolo" }] },
        { title: "Torta" },
      ],
    });
    // The edit screen shows it back in the slots; another account cannot open it.
    const edit = await page(owner.client, `/rcs/templates/edit?id=${id}`);
    expect(edit.html).toContain('value="https://acucar.example/bolo"');
    expect((await other.client.get(`/rcs/templates/edit?id=${id}`)).status).toBe(404);

    await owner.client.post("/rcs/templates/new", { intent: "save", name: "Aviso", type: "text", messageText: "Hoje tem bolo de cenoura" });
    const search = await page(owner.client, "/rcs/templates?q=vitr");
    expect(search.html).toContain(`data-template-id="${id}"`);
    expect(search.html).not.toContain(">Aviso<");

    const none = await owner.client.post("/rcs/templates", { intent: "bulk-delete" });
    expect(none.status).toBe(422);
    const ids = (await query<{ id: string }>("SELECT id FROM rcs_templates WHERE account_id = $1", [owner.accountId])).map((r) => r.id);
    expect(ids).toHaveLength(2);
    const body = new URLSearchParams({ intent: "bulk-delete" });
    for (const x of ids) body.append("ids", x);
    const bulk = await owner.client.request("/rcs/templates", {
      method: "POST",
      body: `${body.toString()}&csrf=${encodeURIComponent(owner.client.csrf)}`,
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
    });
    expect(bulk.status).toBe(302);
    expect(await query("SELECT 1 FROM rcs_templates WHERE account_id = $1", [owner.accountId])).toEqual([]);
  });

  it("template groups: create one (a taken name is refused), delete it", async () => {
    expect((await owner.client.post("/rcs/templates", { intent: "group-add", name: "Festas" })).status).toBe(302);
    const dup = await owner.client.post("/rcs/templates", { intent: "group-add", name: "festas" });
    expect(dup.status).toBe(422);
    expect(visible(await dup.text())).toContain("Já existe um grupo com este nome");
    const [g] = await query<{ id: string }>("SELECT id FROM rcs_template_groups WHERE account_id = $1", [owner.accountId]);
    expect((await page(owner.client, "/rcs/templates")).html).toContain(`data-group-id="${g.id}"`);
    expect((await owner.client.post("/rcs/templates", { intent: "group-delete", id: g.id, mode: "keep" })).status).toBe(302);
    expect(await query("SELECT 1 FROM rcs_template_groups WHERE id = $1", [g.id])).toEqual([]);
  });

  it("the overview counts this month's RCS messages by status with their cost, and turns the SMS fallback on", async () => {
    await makeMessages(owner.accountId, [
      { channel: "rcs", status: "delivered", price: 18, sender: "doceria@rbm.goog" },
      { channel: "rcs", status: "delivered", price: 6, sender: "doceria@rbm.goog" },
      { channel: "rcs", status: "failed", price: 0, sender: "doceria@rbm.goog" },
      { channel: "sms", status: "delivered", price: 8 },
    ]);
    const { html } = await page(owner.client, "/rcs");
    const row = (status: string) => html.slice(html.indexOf(`data-status="${status}"`), html.indexOf("</tr>", html.indexOf(`data-status="${status}"`)));
    expect(row("delivered")).toMatch(/data-count="?"?[^>]*>2</);
    expect(row("failed")).toMatch(/data-count="?"?[^>]*>1</);
    expect(row("total")).toMatch(/>3</);
    expect(row("total")).toContain("R$\u00a00,24");
    expect(html).toContain(`data-agent-id="${agentId}"`);

    const on = await owner.client.post("/rcs", { rcs_fallback_sms: "on" });
    expect(on.status).toBe(302);
    expect(await query("SELECT rcs_fallback_sms FROM accounts WHERE id = $1", [owner.accountId])).toEqual([{ rcs_fallback_sms: true }]);
    expect((await owner.client.post("/rcs", {})).status).toBe(302);
    expect(await query("SELECT rcs_fallback_sms FROM accounts WHERE id = $1", [owner.accountId])).toEqual([{ rcs_fallback_sms: false }]);
  });

  it("RCS opt-outs are channel rcs; the deny list is the account's one list", async () => {
    const add = await owner.client.post("/rcs/optouts", { intent: "add", channel: "rcs", recipient: "(11) 98765-4321" });
    expect(add.status).toBe(302);
    expect(await query("SELECT channel FROM optouts WHERE account_id = $1", [owner.accountId])).toEqual([{ channel: "rcs" }]);
    expect((await page(owner.client, "/rcs/optouts")).html).toContain("98765-4321");
    expect((await page(other.client, "/rcs/optouts")).html).not.toContain("98765-4321");
    expect((await owner.client.post("/rcs/denylist", { intent: "add", recipient: "(11) 91234-5678", reason: "pediu" })).status).toBe(302);
    expect((await page(owner.client, "/rcs/denylist")).html).toContain("91234-5678");
  });
});
