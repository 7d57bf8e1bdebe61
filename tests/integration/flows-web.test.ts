/**
 * The flow screens' actions driven like a browser with JavaScript off (issue 20): plain form posts
 * with the CSRF field (index routes post to `?index`). Create (a keyword trigger needs its keyword;
 * a template's texts in the person's language), the builder's JSON form (bad JSON and an unknown
 * step type refused, the draft untouched; save, publish, restore, settings), the list's bulk forms
 * (none checked, another account's flow: nothing changed). Effects are read in the database.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { giveOmni } from "../support/api";
import { query } from "../support/db";
import { setUser } from "../support/factories";
import { location, signedInCustomer, type WebCustomer } from "../support/web";

const visible = (html: string) => html.replace(/<script[\s\S]*?<\/script>/g, "");

let me: WebCustomer;
let other: WebCustomer;

async function flowRow(id: string) {
  const [f] = await query<{
    name: string;
    status: string;
    trigger: string;
    trigger_value: string | null;
    draft: { nodes: Array<{ id: string; type: string; data: Record<string, unknown> }> };
    published_version: number | null;
  }>("SELECT name, status, trigger, trigger_value, draft, published_version FROM flows WHERE id = $1", [id]);
  return f;
}

async function create(c: WebCustomer, fields: Record<string, string>) {
  const res = await c.client.post("/flows/create", { channel: "webchat", trigger: "inbound", ...fields });
  expect(res.status, await res.clone().text()).toBe(302);
  const to = location(res)!;
  expect(to).toMatch(/^\/flows\/[0-9a-f-]{36}$/);
  return to.split("/").pop()!;
}

const DRAFT = {
  nodes: [
    { id: "start", type: "start", position: { x: 0, y: 0 }, data: {} },
    { id: "hi", type: "message", position: { x: 0, y: 140 }, data: { text: "Hi there" } },
  ],
  edges: [{ id: "e1", source: "start", output: "next", target: "hi" }],
};

beforeAll(async () => {
  me = await signedInCustomer("flows-web");
  await giveOmni(me.accountId);
  await setUser(me.userId, { locale: "en" });
  other = await signedInCustomer("flows-web-other");
  await giveOmni(other.accountId);
});

describe("/flows without JavaScript", () => {
  it("creates a flow: the CSRF field and a keyword trigger's keyword are required; a template's texts come in the person's language", async () => {
    expect((await me.client.post("/flows/create", { name: "X", channel: "webchat", trigger: "inbound" }, { csrf: null })).status).toBe(403);
    const refused = await me.client.post("/flows/create", { name: "Promo", channel: "webchat", trigger: "keyword", trigger_value: "" });
    expect(refused.status).toBe(422);
    expect((await query("SELECT 1 FROM flows WHERE account_id = $1", [me.accountId])).length).toBe(0);

    const id = await create(me, { name: "Questions", template: "faq", trigger: "keyword", trigger_value: " PROMO " });
    const f = await flowRow(id);
    expect(f).toMatchObject({ name: "Questions", status: "draft", trigger: "keyword", trigger_value: "promo", published_version: null });
    expect(f.draft.nodes.find((n) => n.id === "topic")?.data.text).toBe("What is your question about?");
    const page = await me.client.page(`/flows/${id}`);
    expect(page.res.status).toBe(200);
    expect(visible(page.html)).toContain("Definition (JSON)");
  });

  it("the builder's JSON form: bad JSON and an unknown step refused (draft untouched), then save, publish, restore and settings", async () => {
    const id = await create(me, { name: "Builder" });
    const path = `/flows/${id}`;

    const bad = await me.client.post(path, { intent: "save", draft: "{nodes:" });
    expect(bad.status).toBe(422);
    expect(visible(await bad.text())).toContain("Invalid JSON");
    const unknown = await me.client.post(path, { intent: "save", draft: JSON.stringify({ nodes: [...DRAFT.nodes, { id: "x", type: "teleport", data: {} }], edges: [] }) });
    expect(unknown.status).toBe(422);
    const html = visible(await unknown.text());
    expect(html).toContain("Flow has errors");
    expect(html).toContain("Unknown step type");
    expect((await flowRow(id)).draft.nodes.map((n) => n.id)).toEqual(["start"]);

    const saved = await me.client.post(path, { intent: "save", draft: JSON.stringify(DRAFT) });
    expect([saved.status, location(saved)]).toEqual([302, path]);
    expect((await flowRow(id)).draft.nodes.map((n) => n.id)).toEqual(["start", "hi"]);

    const published = await me.client.post(path, { intent: "publish", draft: JSON.stringify(DRAFT) });
    expect([published.status, location(published)]).toEqual([302, path]);
    expect(await flowRow(id)).toMatchObject({ status: "active", published_version: 1 });

    // A change saved, then version 1 restored into the draft.
    const changed = { ...DRAFT, nodes: [DRAFT.nodes[0], { ...DRAFT.nodes[1], data: { text: "Changed" } }] };
    expect((await me.client.post(path, { intent: "save", draft: JSON.stringify(changed) })).status).toBe(302);
    expect((await flowRow(id)).draft.nodes[1].data.text).toBe("Changed");
    expect((await me.client.post(path, { intent: "restore", version: "1" })).status).toBe(302);
    expect((await flowRow(id)).draft.nodes[1].data.text).toBe("Hi there");
    expect((await me.client.post(path, { intent: "restore", version: "9" })).status).toBe(404);

    const settings = await me.client.post(path, { intent: "settings", name: "Renamed", channel: "telegram", trigger: "keyword", trigger_value: "Oi" });
    expect(settings.status).toBe(302);
    expect(await flowRow(id)).toMatchObject({ name: "Renamed", trigger: "keyword", trigger_value: "oi", status: "active" });
  });

  it("the list's bulk forms: none checked refused; another account's flow is not found there and nothing changes", async () => {
    const mine = await create(me, { name: "Mine", channel: "instagram" });
    await me.client.post(`/flows/${mine}`, { intent: "publish", draft: JSON.stringify(DRAFT) });
    const theirs = await create(other, { name: "Theirs", channel: "instagram" });

    const none = await me.client.post("/flows?index", { intent: "inactivate" });
    expect(none.status).toBe(422);
    expect(visible(await none.text())).toContain("Select at least one flow");

    const body = new URLSearchParams({ intent: "inactivate", csrf: me.client.csrf });
    body.append("ids", mine);
    body.append("ids", theirs);
    const mixed = await me.client.request("/flows?index", { method: "POST", body, headers: { "Content-Type": "application/x-www-form-urlencoded" } });
    expect(mixed.status).toBe(404);
    expect((await flowRow(mine)).status).toBe("active");
    expect((await me.client.get(`/flows/${theirs}`)).status).toBe(404);

    const ok = await me.client.post("/flows?index", { intent: "inactivate", ids: mine });
    expect([ok.status, location(ok)]).toEqual([302, "/flows"]);
    expect((await flowRow(mine)).status).toBe("inactive");
    const list = visible((await me.client.page("/flows?status=inactive&channel=instagram")).html);
    expect(list).toContain("Mine");
    expect(list).not.toContain("Theirs");
  });
});
