/**
 * Moving deals (issue 22, ADR 056): a move names the deal's version the mover saw; it lands before a
 * given deal, at an index, or at the end, writing one row (the midpoint of its neighbours), and the
 * history records the stay. A stale version, or a before-deal that left the column meanwhile, is a
 * 409 DEAL_VERSION_CONFLICT answering the deal as it is now, with nothing written. Two people
 * moving the same card at once: one wins, the other gets the conflict. Every change reaches the
 * board's watchers over the realtime service (stream "boards"), for who may open /pipelines only.
 */
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { api, login, registerPerson } from "../support/api";
import { query } from "../support/db";
import { addMember } from "../support/factories";
import { LiveClient, wsUrl } from "../support/live-client";

type Token = { token: string; accountId: string; userId: string };
let owner: Token;
let billing: Token;
let boardId: string;
let cols: string[];

async function person(tag: string): Promise<Token> {
  const p = await registerPerson(tag);
  return { token: (await login(p.email, p.password)).token, accountId: p.accountId, userId: p.userId };
}
const mk = async (lead: string, column: string) =>
  (
    await api(`/api/pipelines/boards/${boardId}/deals`, {
      token: owner.token,
      body: { lead_name: lead, description: "d", priority: "normal", due_date: "2026-12-31", column_id: column },
    })
  ).body.data as { id: string; version: number };
const order = async (i: number) =>
  ((await api(`/api/pipelines/boards/${boardId}`, { token: owner.token })).body.data.columns[i].deals as Array<{ lead_name: string }>).map((d) => d.lead_name);
const move = (id: string, body: Record<string, unknown>, token = owner.token) => api(`/api/pipelines/deals/${id}/move`, { token, body, lang: "en" });

beforeAll(async () => {
  owner = await person("moves");
  const b = await registerPerson("movesbilling");
  await addMember(owner.accountId, b.userId, { role: "billing" });
  billing = { token: (await login(b.email, b.password)).token, accountId: owner.accountId, userId: b.userId };
  const board = await api("/api/pipelines/boards", { token: owner.token, body: { name: "Funil", columns: ["Novos", "Proposta", "Fechado"] } });
  boardId = board.body.data.id;
  cols = (await api(`/api/pipelines/boards/${boardId}`, { token: owner.token })).body.data.columns.map((c: { id: string }) => c.id);
});

describe("moves", () => {
  it("moves before a deal, at an index, at the end; one deal row written; the version grows; the stay is recorded", async () => {
    const a = await mk("A", cols[1]);
    const b = await mk("B", cols[1]);
    const c = await mk("C", cols[1]);
    const x = await mk("X", cols[0]);
    const before = await move(x.id, { to_column_id: cols[1], before_deal_id: b.id, expected_version: x.version });
    expect(before.status, JSON.stringify(before.body)).toBe(200);
    expect(before.body).toMatchObject({ ok: true, deal: { column_id: cols[1], version: 2 } });
    expect(await order(1)).toEqual(["A", "X", "B", "C"]);
    // Only the moved deal's position changed.
    const positions = await query<{ id: string; position: number }>(`SELECT id, position FROM pipeline_deals WHERE id = ANY($1::uuid[]) ORDER BY position`, [[a.id, b.id, c.id]]);
    expect(positions.map((p) => p.position)).toEqual([1024, 2048, 3072]);
    const atIndex = await move(x.id, { to_column_id: cols[1], position: 0, expected_version: 2 });
    expect(atIndex.body.deal.version).toBe(3);
    expect(await order(1)).toEqual(["X", "A", "B", "C"]);
    const atEnd = await move(x.id, { to_column_id: cols[2], expected_version: 3 });
    expect(atEnd.status).toBe(200);
    expect(await order(2)).toEqual(["X"]);
    const stays = await query(`SELECT from_column_id, to_column_id, left_at IS NULL AS open FROM pipeline_deal_moves WHERE deal_id = $1 ORDER BY id`, [x.id]);
    expect(stays).toEqual([
      { from_column_id: null, to_column_id: cols[0], open: false },
      { from_column_id: cols[0], to_column_id: cols[1], open: false },
      { from_column_id: cols[1], to_column_id: cols[2], open: true },
    ]);
  });

  it("a stale version is a 409 with the deal as it is now, and nothing is written", async () => {
    const d = await mk("Stale", cols[0]);
    await move(d.id, { to_column_id: cols[1], expected_version: 1 });
    const stale = await move(d.id, { to_column_id: cols[2], expected_version: 1 });
    expect(stale.status).toBe(409);
    expect(stale.body.error).toEqual({ code: "DEAL_VERSION_CONFLICT", message: "This deal was changed by someone else meanwhile; the board shows it as it is now" });
    expect(stale.body.current).toMatchObject({ id: d.id, column_id: cols[1], version: 2 });
    expect((await query(`SELECT column_id, version FROM pipeline_deals WHERE id = $1`, [d.id]))[0]).toEqual({ column_id: cols[1], version: 2 });
    // An edit raises the version too: a move made from the older view conflicts.
    await api(`/api/pipelines/deals/${d.id}`, { method: "PUT", token: owner.token, body: { priority: "urgent" } });
    expect((await move(d.id, { to_column_id: cols[0], expected_version: 2 })).status).toBe(409);
    expect((await move(d.id, { to_column_id: cols[0], expected_version: 3 })).status).toBe(200);
  });

  it("a before-deal that left the target column is a conflict too", async () => {
    const p = await mk("P", cols[0]);
    const q = await mk("Q", cols[0]);
    await move(q.id, { to_column_id: cols[2], expected_version: 1 });
    const res = await move(p.id, { to_column_id: cols[0], before_deal_id: q.id, expected_version: 1 });
    expect(res.status).toBe(409);
    expect(res.body.current).toMatchObject({ id: p.id, version: 1 });
  });

  it("two people move the same card at once: exactly one wins, the other gets the conflict", async () => {
    const d = await mk("Disputa", cols[0]);
    const [one, two] = await Promise.all([move(d.id, { to_column_id: cols[1], expected_version: 1 }), move(d.id, { to_column_id: cols[2], expected_version: 1 })]);
    expect([one.status, two.status].sort()).toEqual([200, 409]);
    const winner = one.status === 200 ? one : two;
    const loser = one.status === 200 ? two : one;
    expect(loser.body.current).toEqual(winner.body.deal);
    expect((await query(`SELECT count(*)::int AS n FROM pipeline_deal_moves WHERE deal_id = $1`, [d.id]))[0].n).toBe(2);
  });

  it("many moves into the same gap keep a strict order (the column is renumbered when the gap runs out)", async () => {
    const l = await mk("L", cols[0]);
    const r = await mk("R", cols[0]);
    const versions: Record<string, number> = {};
    const names: string[] = [];
    // 60 halvings of the gap between L and R: far past double precision's 52 bits.
    let next = r.id;
    for (let i = 0; i < 60; i++) {
      const n = await mk(`M${i}`, cols[1]);
      const res = await move(n.id, { to_column_id: cols[0], before_deal_id: next, expected_version: n.version });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      versions[n.id] = res.body.deal.version;
      names.unshift(`M${i}`);
      next = n.id;
    }
    const got = (await order(0)).filter((n) => n === "L" || n === "R" || n.startsWith("M"));
    expect(got).toEqual(["L", ...names, "R"]);
    const pos = await query<{ n: number }>(`SELECT count(DISTINCT position)::int AS n FROM pipeline_deals WHERE column_id = $1 AND archived_at IS NULL`, [cols[0]]);
    const all = await query<{ n: number }>(`SELECT count(*)::int AS n FROM pipeline_deals WHERE column_id = $1 AND archived_at IS NULL`, [cols[0]]);
    expect(pos[0].n).toBe(all[0].n);
    expect(l.id).toBeTruthy();
  });

  it("refuses a column of another board, a missing version, an archived deal", async () => {
    const other = (await api("/api/pipelines/boards", { token: owner.token, body: { name: "Outro", columns: ["Z"] } })).body.data;
    const z = (await api(`/api/pipelines/boards/${other.id}`, { token: owner.token })).body.data.columns[0].id;
    const d = await mk("Regras", cols[0]);
    const elsewhere = await move(d.id, { to_column_id: z, expected_version: 1 });
    expect(elsewhere.status).toBe(422);
    expect(elsewhere.body.error.fields.to_column_id).toEqual(["This column is not on the deal's board"]);
    const noVersion = await move(d.id, { to_column_id: cols[1] });
    expect(Object.keys(noVersion.body.error.fields)).toEqual(["expected_version"]);
    await api(`/api/pipelines/deals/${d.id}/archive`, { method: "POST", token: owner.token });
    const archived = await move(d.id, { to_column_id: cols[1], expected_version: 2 });
    expect(archived.status).toBe(422);
    expect(archived.body.error.fields.form).toEqual(["An archived deal cannot be moved; restore it first"]);
  });
});

describe("live for everyone looking at the board", () => {
  const clients: LiveClient[] = [];
  afterAll(async () => {
    await Promise.all(clients.map((c) => c.close()));
  });

  it("a move, an edit and a new column reach the board's watchers over the realtime service; not who may not open /pipelines", async () => {
    const watcher = new LiveClient(wsUrl(inject("realtimeUrl"), { token: owner.token }));
    const outsider = new LiveClient(wsUrl(inject("realtimeUrl"), { token: billing.token }));
    clients.push(watcher, outsider);
    expect(Object.keys((await watcher.welcome()).cursors).sort()).toEqual(["boards", "notifications"]);
    expect(Object.keys((await outsider.welcome()).cursors)).toEqual(["notifications"]);
    const d = await mk("Ao vivo", cols[0]);
    const moved = await move(d.id, { to_column_id: cols[2], expected_version: 1 });
    await api(`/api/pipelines/deals/${d.id}`, { method: "PUT", token: owner.token, body: { value_cents: 777 } });
    await api(`/api/pipelines/boards/${boardId}/columns`, { token: owner.token, body: { name: "Perdido" } });
    await watcher.until((c) => c.events("boards").some((e) => e.event === "column_created"), "column_created");
    const mine = watcher.events("boards").filter((e) => e.data.board_id === boardId && (e.data.deal?.id === d.id || e.event === "column_created"));
    expect(mine.map((e) => e.event)).toEqual(["deal_created", "deal_moved", "deal_updated", "column_created"]);
    expect(mine[1].data).toMatchObject({ from_column_id: cols[0], deal: moved.body.deal, actor_id: owner.userId });
    expect(mine[2].data.deal).toMatchObject({ value_cents: 777, version: 3 });
    expect(mine[3].data.column).toMatchObject({ name: "Perdido", board_id: boardId });
    expect(outsider.events()).toEqual([]);
  });
});
