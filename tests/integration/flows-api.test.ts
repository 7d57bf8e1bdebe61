/**
 * Flows over the JWT API (issue 20, ADR 053): create, save a draft (work in progress kept, an
 * unknown step type refused naming the step), publish (422 FLOW_HAS_ERRORS naming each faulty
 * step; then immutable versions 1, 2…), one active flow per channel and trigger (409
 * FLOW_CHANNEL_TAKEN), restore a version into the draft, enable and inactivate in bulk; scoped by
 * account and gated by the omni plan.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { api, giveOmni, login, registerPerson, type Person } from "../support/api";
import { query } from "../support/db";
import { makeUser } from "../support/factories";

let owner: Person;
let token: string;
let otherToken: string;

/** A welcome flow: greet, ask with buttons, hand off or answer and end. */
function welcome(greeting = "Olá! Como podemos ajudar?") {
  return {
    nodes: [
      { id: "start", type: "start", position: { x: 0, y: 0 }, data: {} },
      { id: "hello", type: "message", position: { x: 0, y: 100 }, data: { text: greeting, buttons: ["Horários", "Atendente"] } },
      { id: "ask", type: "question", data: { text: "Escolha uma opção", check: "choice", choices: ["Horários", "Atendente"], store: { kind: "variable", name: "choice" } } },
      { id: "branch", type: "condition", data: { rules: [{ id: "human", subject: "variable", name: "choice", op: "equals", value: "Atendente" }] } },
      { id: "hours", type: "message", data: { text: "De segunda a sexta, das 8h às 18h." } },
      { id: "agent", type: "handoff", data: { message: "Um momento." } },
      { id: "bye", type: "end", data: {} },
    ],
    edges: [
      { id: "e1", source: "start", output: "next", target: "hello" },
      { id: "e2", source: "hello", output: "next", target: "ask" },
      { id: "e3", source: "ask", output: "answer", target: "branch" },
      { id: "e4", source: "branch", output: "human", target: "agent" },
      { id: "e5", source: "branch", output: "else", target: "hours" },
      { id: "e6", source: "hours", output: "next", target: "bye" },
    ],
  };
}

const en = (opts: Parameters<typeof api>[1] = {}) => ({ token, lang: "en", ...opts });

async function createFlow(body: Record<string, unknown>) {
  const res = await api("/api/flow/flows", en({ body }));
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data as { id: string; status: string; published_version: number | null };
}

beforeAll(async () => {
  owner = await registerPerson("flows");
  await giveOmni(owner.accountId);
  token = (await login(owner.email, owner.password)).token;
  const other = await registerPerson("flows-other");
  await giveOmni(other.accountId);
  otherToken = (await login(other.email, other.password)).token;
});

describe("flows API", () => {
  it("without the omni plan: 403 PLAN_REQUIRED", async () => {
    const p = await registerPerson("flows-noplan");
    const t = (await login(p.email, p.password)).token;
    const res = await api("/api/flow/flows", { token: t });
    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe("PLAN_REQUIRED");
    expect((await api("/api/flow/flows", { token: t, body: { name: "x", channel: "webchat", trigger: "inbound" } })).status).toBe(403);
  });

  it("creates a draft with a start step; a keyword trigger needs its keyword; bad settings are 422 on their field", async () => {
    const res = await api("/api/flow/flows", en({ body: { name: "Boas-vindas", channel: "webchat", trigger: "inbound" } }));
    expect(res.status).toBe(201);
    expect(res.headers.get("location")).toBe(`/api/flow/flows/${res.body.data.id}`);
    expect(res.body.data).toMatchObject({
      name: "Boas-vindas",
      channel: "webchat",
      trigger: "inbound",
      trigger_value: null,
      status: "draft",
      published_version: null,
      versions: [],
    });
    expect(res.body.data.draft).toEqual({ nodes: [{ id: "start", type: "start", position: { x: 0, y: 0 }, data: {} }], edges: [] });
    expect(res.body.data.issues).toEqual([{ node: "start", field: "outputs.next", key: "validation.required", path: "nodes.start.outputs.next", message: "Required field" }]);
    expect((await api(res.headers.get("location")!, en())).body).toEqual(res.body);

    const keyword = await api("/api/flow/flows", en({ body: { name: "Pedido", channel: "telegram", trigger: "keyword" } }));
    expect(keyword.status).toBe(422);
    expect(keyword.body.error.fields).toEqual({ trigger_value: ["Required field"] });
    const kept = await createFlow({ name: "Pedido", channel: "telegram", trigger: "keyword", trigger_value: "  PEDIDO " });
    expect(kept).toMatchObject({ trigger_value: "pedido" });

    const bad = await api("/api/flow/flows", en({ body: { name: "", channel: "sms", trigger: "whenever" } }));
    expect(bad.status).toBe(422);
    expect(Object.keys(bad.body.error.fields).sort()).toEqual(["channel", "name", "trigger"]);
  });

  it("create → save drafts → publish with errors (422 naming the steps) → publish v1 → another flow on the channel 409 → v2 → restore v1 → versions immutable", async () => {
    const flow = await createFlow({ name: "Atendimento", channel: "instagram", trigger: "inbound" });
    const path = `/api/flow/flows/${flow.id}`;

    // Work in progress is saved, with its issues beside it.
    const wip = welcome();
    wip.nodes[1] = { id: "hello", type: "message", position: { x: 0, y: 100 }, data: {} } as never;
    wip.edges = wip.edges.filter((e) => e.id !== "e3");
    const saved = await api(path, en({ method: "PUT", body: { draft: wip } }));
    expect(saved.status).toBe(200);
    expect(saved.body.data.draft.nodes[1]).toEqual({ id: "hello", type: "message", position: { x: 0, y: 100 }, data: {} });
    expect(saved.body.data.issues.map((i: { path: string }) => i.path)).toEqual(expect.arrayContaining(["nodes.hello.data.text", "nodes.ask.outputs.answer"]));

    // An unknown step type is refused at once, naming the step; the draft stays as it was.
    const weird = welcome();
    weird.nodes.push({ id: "warp", type: "teleport", data: {} } as never);
    const refused = await api(path, en({ method: "PUT", body: { name: "Renamed", draft: weird } }));
    expect(refused.status).toBe(422);
    expect(refused.body.error).toMatchObject({ code: "FLOW_HAS_ERRORS", message: "Flow has errors", fields: { "nodes.warp.type": ["Unknown step type"] } });
    const unchanged = await api(path, { token });
    expect(unchanged.body.data.name).toBe("Atendimento");
    expect(unchanged.body.data.draft).toEqual(saved.body.data.draft);

    // Publishing the work in progress: 'Flow has errors', each faulty step named; nothing written.
    const failed = await api(`${path}/publish`, en({ method: "POST" }));
    expect(failed.status).toBe(422);
    expect(failed.body.error.code).toBe("FLOW_HAS_ERRORS");
    expect(failed.body.error.message).toBe("Flow has errors");
    expect(failed.body.error.fields).toMatchObject({
      "nodes.hello.data.text": ["Required field"],
      "nodes.ask.outputs.answer": ["The question needs a path for the answer"],
    });
    const pt = await api(`${path}/publish`, { method: "POST", token, lang: "pt-BR" });
    expect(pt.body.error.message).toBe("O fluxo tem erros");
    expect(await query("SELECT 1 FROM flow_versions WHERE flow_id = $1", [flow.id])).toEqual([]);
    expect((await api(path, { token })).body.data).toMatchObject({ status: "draft", published_version: null });

    // A valid draft publishes as version 1, normalized (the question's default retries), and the flow runs it.
    expect((await api(path, en({ method: "PUT", body: { draft: welcome() } }))).body.data.issues).toEqual([]);
    const v1 = await api(`${path}/publish`, en({ method: "POST" }));
    expect(v1.status, JSON.stringify(v1.body)).toBe(200);
    expect(v1.body.data).toMatchObject({ status: "active", published_version: 1 });
    expect(v1.body.data.versions).toEqual([{ version: 1, published_at: expect.any(String), published_by: owner.userId }]);
    const [stored] = await query<{ definition: { nodes: Array<{ id: string; data: { retries?: number } }> } }>(
      "SELECT definition FROM flow_versions WHERE flow_id = $1 AND version = 1 AND account_id = $2",
      [flow.id, owner.accountId],
    );
    expect(stored.definition.nodes.find((n) => n.id === "ask")?.data.retries).toBe(2);

    // Another flow on the same channel and trigger: 'This channel may already have a flow', nothing written.
    const rival = await createFlow({ name: "Outro", channel: "instagram", trigger: "inbound", draft: welcome("Oi!") });
    const taken = await api(`/api/flow/flows/${rival.id}/publish`, en({ method: "POST" }));
    expect(taken.status).toBe(409);
    expect(taken.body.error).toMatchObject({ code: "FLOW_CHANNEL_TAKEN", message: "This channel may already have a flow" });
    expect((await api(`/api/flow/flows/${rival.id}`, { token })).body.data).toMatchObject({ status: "draft", published_version: null, versions: [] });
    expect(await query("SELECT 1 FROM flow_versions WHERE flow_id = $1", [rival.id])).toEqual([]);
    // The same channel with another trigger is another slot.
    expect((await api(`/api/flow/flows/${rival.id}`, en({ method: "PUT", body: { trigger: "keyword", trigger_value: "oi" } }))).status).toBe(200);
    expect((await api(`/api/flow/flows/${rival.id}/publish`, en({ method: "POST" }))).body.data).toMatchObject({ status: "active", published_version: 1 });
    // …and moving it back onto the taken slot while active is refused the same way.
    const back = await api(`/api/flow/flows/${rival.id}`, en({ method: "PUT", body: { trigger: "inbound" } }));
    expect(back.status).toBe(409);
    expect(back.body.error.code).toBe("FLOW_CHANNEL_TAKEN");

    // Version 2; then version 1 restored into the draft while version 2 keeps running.
    await api(path, en({ method: "PUT", body: { draft: welcome("Bem-vindo de volta!") } }));
    const v2 = await api(`${path}/publish`, en({ method: "POST" }));
    expect(v2.body.data).toMatchObject({ status: "active", published_version: 2 });
    expect(v2.body.data.versions.map((v: { version: number }) => v.version)).toEqual([2, 1]);
    const restored = await api(`${path}/restore/1`, en({ method: "POST" }));
    expect(restored.status).toBe(200);
    expect(restored.body.data).toMatchObject({ published_version: 2, status: "active" });
    expect(restored.body.data.draft).toEqual(stored.definition);
    expect(restored.body.data.draft.nodes.find((n: { id: string }) => n.id === "hello").data.text).toBe("Olá! Como podemos ajudar?");
    expect((await api(`${path}/restore/3`, en({ method: "POST" }))).status).toBe(404);

    // A published version never changes, whoever tries.
    await expect(query("UPDATE flow_versions SET definition = '{}'::jsonb WHERE flow_id = $1 AND version = 1", [flow.id])).rejects.toThrow(/immutable/);
    await expect(query("UPDATE flow_versions SET published_at = now() - interval '1 day' WHERE flow_id = $1", [flow.id])).rejects.toThrow(/immutable/);
    const [{ definition }] = await query<{ definition: unknown }>("SELECT definition FROM flow_versions WHERE flow_id = $1 AND version = 1", [flow.id]);
    expect(definition).toEqual(stored.definition);

    // Another account sees none of it and changes nothing.
    const before = await query("SELECT name, status, draft, published_version FROM flows WHERE id = $1", [flow.id]);
    const attempts: Array<[string, string, unknown?]> = [
      ["GET", path],
      ["PUT", path, { name: "Hacked", draft: welcome("hacked") }],
      ["POST", `${path}/publish`],
      ["POST", `${path}/restore/1`],
      ["POST", "/api/flow/flows/status", { ids: [flow.id], status: "inactive" }],
    ];
    for (const [method, p, body] of attempts) {
      const res = await api(p, { method, token: otherToken, body });
      expect(res.status, `${method} ${p}`).toBe(404);
    }
    expect((await api("/api/flow/flows", { token: otherToken })).body).toEqual({ data: [], next_cursor: null });
    expect(await query("SELECT name, status, draft, published_version FROM flows WHERE id = $1", [flow.id])).toEqual(before);
    expect((await query("SELECT version FROM flow_versions WHERE flow_id = $1 ORDER BY version", [flow.id])).map((r) => r.version)).toEqual([1, 2]);
  });

  it("enables and inactivates in bulk: all or none, a draft never enabled, one active per channel and trigger", async () => {
    const a = await createFlow({ name: "Bulk A", channel: "messenger", trigger: "inbound", draft: welcome() });
    const b = await createFlow({ name: "Bulk B", channel: "messenger", trigger: "keyword", trigger_value: "menu", draft: welcome() });
    const c = await createFlow({ name: "Bulk C", channel: "messenger", trigger: "inbound", draft: welcome("Oi") });
    for (const f of [a, b]) expect((await api(`/api/flow/flows/${f.id}/publish`, en({ method: "POST" }))).status).toBe(200);
    const status = (ids: string[], s: string) => api("/api/flow/flows/status", en({ body: { ids, status: s } }));

    const off = await status([a.id, b.id], "inactive");
    expect(off.status).toBe(200);
    expect(off.body.data.map((f: { id: string; status: string }) => [f.id, f.status])).toEqual([
      [a.id, "inactive"],
      [b.id, "inactive"],
    ]);
    expect((await api("/api/flow/flows?status=inactive&channel=messenger", { token })).body.data.map((f: { id: string }) => f.id).sort()).toEqual([a.id, b.id].sort());

    // C was never published: enabling it (with A) is refused, and A stays inactive.
    const draft = await status([a.id, c.id], "active");
    expect(draft.status).toBe(422);
    expect(draft.body.error.fields).toEqual({ "ids.1": ["Publish the flow before enabling it"] });
    expect((await api(`/api/flow/flows/${a.id}`, { token })).body.data.status).toBe("inactive");
    // Inactivating a draft leaves it a draft.
    expect((await status([c.id], "inactive")).body.data[0].status).toBe("draft");

    // C published takes the free slot; enabling A beside it is 409 on A.
    expect((await api(`/api/flow/flows/${c.id}/publish`, en({ method: "POST" }))).body.data.status).toBe("active");
    const clash = await status([b.id, a.id], "active");
    expect(clash.status).toBe(409);
    expect(clash.body.error).toMatchObject({ code: "FLOW_CHANNEL_TAKEN", fields: { "ids.1": ["This channel may already have a flow"] } });
    expect((await api(`/api/flow/flows/${b.id}`, { token })).body.data.status).toBe("inactive");
    expect((await status([b.id], "active")).body.data[0]).toMatchObject({ id: b.id, status: "active", published_version: 1 });

    // An id of no flow of the account: 404, nothing changed.
    const unknown = await status([b.id, "00000000-0000-4000-8000-000000000000"], "inactive");
    expect(unknown.status).toBe(404);
    expect((await api(`/api/flow/flows/${b.id}`, { token })).body.data.status).toBe("active");
    expect((await status(["nope"], "inactive")).status).toBe(422);
  });

  it("a version outlives its publisher: deleting the person only forgets who published it", async () => {
    const flow = await createFlow({ name: "Publisher gone", channel: "google_business", trigger: "api", draft: welcome() });
    const publisher = await makeUser();
    await query("INSERT INTO flow_versions (flow_id, account_id, version, definition, published_by) VALUES ($1, $2, 1, $3::jsonb, $4)", [
      flow.id,
      owner.accountId,
      JSON.stringify(welcome()),
      publisher,
    ]);
    await query("DELETE FROM users WHERE id = $1", [publisher]);
    const [v] = await query<{ published_by: string | null; definition: unknown }>("SELECT published_by, definition FROM flow_versions WHERE flow_id = $1", [flow.id]);
    expect(v).toEqual({ published_by: null, definition: welcome() });
    await expect(query("UPDATE flow_versions SET published_by = $2 WHERE flow_id = $1", [flow.id, owner.userId])).rejects.toThrow(/immutable/);
  });

  it("lists newest first, keyset paged, with filters", async () => {
    const all = await api("/api/flow/flows?limit=200", { token });
    expect(all.status).toBe(200);
    expect(all.body.data.length).toBeGreaterThanOrEqual(6);
    const ids: string[] = [];
    let cursor: string | null = null;
    do {
      const page: { body: { data: Array<{ id: string }>; next_cursor: string | null } } = await api(`/api/flow/flows?limit=2${cursor ? `&cursor=${cursor}` : ""}`, { token });
      ids.push(...page.body.data.map((f) => f.id));
      cursor = page.body.next_cursor;
    } while (cursor && ids.length < 100);
    expect(ids).toEqual(all.body.data.map((f: { id: string }) => f.id));
    const telegram = await api("/api/flow/flows?channel=telegram", { token });
    expect(telegram.body.data.every((f: { channel: string }) => f.channel === "telegram")).toBe(true);
    expect(telegram.body.data.length).toBeGreaterThan(0);
    expect((await api("/api/flow/flows?status=running", { token })).status).toBe(422);
  });
});
