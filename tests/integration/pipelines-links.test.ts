/**
 * Workflow boards tied to conversations and people, due tasks, reports (issue 22): a deal made
 * from a live-chat room is linked to the room and its contact (the room shows on the deal, the deal
 * on the room); one made from a contact likewise; a due task notifies its owner exactly once,
 * whatever the number of sweeps running at once (the stack's worker included); the reports' figures
 * (value per column and owner, won/lost by period, average time in column) are exact.
 */
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { api, login, registerPerson } from "../support/api";
import { query } from "../support/db";
import { addMember, makeContact, makeLiveRoom } from "../support/factories";

// The notifier below runs in this process on this run's database and Redis (the notification's announcement).
process.env.DATABASE_URL = inject("databaseUrl");
process.env.REDIS_URL = inject("redisUrl");
process.env.REDIS_PREFIX = inject("redisPrefix");
const { notifyDueTasks } = await import("../../api/pipelines/due-tasks");
const { closeDb } = await import("../../models/db");
const { closeRedis } = await import("../../api/lib/redis");

type Token = { token: string; accountId: string; userId: string };
let owner: Token;
let seller: Token;
let other: Token;
let boardId: string;
let cols: string[];

async function person(tag: string): Promise<Token> {
  const p = await registerPerson(tag);
  return { token: (await login(p.email, p.password)).token, accountId: p.accountId, userId: p.userId };
}

beforeAll(async () => {
  owner = await person("links");
  other = await person("linksother");
  const s = await registerPerson("linkssales");
  await addMember(owner.accountId, s.userId, { role: "sales" });
  seller = { token: (await login(s.email, s.password)).token, accountId: owner.accountId, userId: s.userId };
  const board = await api("/api/pipelines/boards", { token: owner.token, body: { name: "Atendimento", columns: ["Entrada", "Proposta", "Fechado"] } });
  boardId = board.body.data.id;
  cols = (await api(`/api/pipelines/boards/${boardId}`, { token: owner.token })).body.data.columns.map((c: { id: string }) => c.id);
});
afterAll(async () => {
  await closeDb();
  await closeRedis();
});

describe("deals of conversations and contacts", () => {
  it("a deal from a live-chat room: linked to the room and its contact, defaults from the room; listed on the room", async () => {
    const contact = await makeContact(owner.accountId, { firstName: "Marina", lastName: "Prado" });
    const room = await makeLiveRoom(owner.accountId, { channel: "whatsapp", username: "marina.p" });
    await query(`UPDATE live_rooms SET contact_id = $2 WHERE id = $1`, [room, contact]);
    const res = await api(`/api/pipelines/rooms/${room}/deals`, { token: seller.token, body: { board_id: boardId, value_cents: 5000 } });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const protocol = (await query<{ protocol: string }>(`SELECT protocol FROM live_rooms WHERE id = $1`, [room]))[0].protocol;
    expect(res.body.data).toMatchObject({
      room_id: room,
      contact_id: contact,
      lead_name: "Marina Prado",
      channel: "whatsapp",
      description: `#${protocol}`,
      owner_id: seller.userId,
      column_id: cols[0],
      value_cents: 5000,
      priority: "normal",
    });
    const full = await api(`/api/pipelines/deals/${res.body.data.id}`, { token: owner.token });
    expect(full.body.data.room).toMatchObject({ id: room, protocol, channel: "whatsapp" });
    expect(full.body.data.contact).toMatchObject({ id: contact, name: "Marina Prado" });
    const onRoom = await api(`/api/pipelines/rooms/${room}/deals`, { token: owner.token });
    expect(onRoom.body.data.map((d: { id: string; board_name: string }) => [d.id, d.board_name])).toEqual([[res.body.data.id, "Atendimento"]]);
    // Another account's room is a 404 and gets no deal.
    const theirRoom = await makeLiveRoom(other.accountId);
    expect((await api(`/api/pipelines/rooms/${theirRoom}/deals`, { token: owner.token, body: {} })).status).toBe(404);
    expect((await api(`/api/pipelines/rooms/${room}/deals`, { token: other.token })).status).toBe(404);
  });

  it("a deal from a contact, and the contact's deals; room and contact ids of another account are refused", async () => {
    const contact = await makeContact(owner.accountId, { firstName: "Rafael", lastName: "Souza Albuquerque de Oliveira" });
    const res = await api(`/api/pipelines/contacts/${contact}/deals`, { token: owner.token, body: { description: "Orçamento de SMS" } });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.data).toMatchObject({ contact_id: contact, room_id: null, description: "Orçamento de SMS" });
    // The name clipped to the card's 25 characters (then trimmed).
    expect(res.body.data.lead_name).toBe("Rafael Souza Albuquerque");
    const list = await api(`/api/pipelines/contacts/${contact}/deals`, { token: owner.token });
    expect(list.body.data.map((d: { id: string }) => d.id)).toEqual([res.body.data.id]);
    const theirContact = await makeContact(other.accountId, { firstName: "Alheio" });
    expect((await api(`/api/pipelines/contacts/${theirContact}/deals`, { token: owner.token, body: {} })).status).toBe(404);
    const viaField = await api(`/api/pipelines/boards/${boardId}/deals`, {
      token: owner.token,
      body: { lead_name: "x", description: "y", priority: "low", due_date: "2026-12-31", contact_id: theirContact, room_id: await makeLiveRoom(other.accountId) },
      lang: "en",
    });
    expect(viaField.status).toBe(422);
    expect(viaField.body.error.fields).toEqual({ contact_id: ["This contact was not found"] });
  });
});

describe("due tasks notify their owner exactly once", () => {
  it("each due, undone task: one notification to its owner with a link to the deal, whatever sweeps run at once", async () => {
    const deal = (
      await api(`/api/pipelines/boards/${boardId}/deals`, { token: owner.token, body: { lead_name: "Lembrete", description: "d", priority: "high", due_date: "2026-12-31" } })
    ).body.data;
    const add = (title: string, due_at: string, owner_id?: string) =>
      api(`/api/pipelines/deals/${deal.id}/tasks`, { token: owner.token, body: { title, description: "Lembrete de teste", priority: "high", due_at, owner_id } }).then(
        (r) => r.body.data.id as string,
      );
    const due1 = await add("Ligar agora", new Date(Date.now() - 60_000).toISOString(), seller.userId);
    const due2 = await add("Mandar proposta", new Date(Date.now() - 120_000).toISOString());
    const future = await add("Amanhã", new Date(Date.now() + 86_400_000).toISOString());
    const done = await add("Feita", new Date(Date.now() - 60_000).toISOString());
    await api(`/api/pipelines/tasks/${done}/toggle`, { method: "POST", token: owner.token, body: { done: true } });

    await Promise.all([notifyDueTasks(), notifyDueTasks(), notifyDueTasks()]);
    await notifyDueTasks();
    const notes = await query<{ user_id: string; params: { title: string; lead: string }; link: string }>(
      `SELECT user_id, params, link FROM notifications WHERE account_id = $1 AND kind = 'pipeline_task_due' ORDER BY params->>'title'`,
      [owner.accountId],
    );
    expect(notes).toEqual([
      { user_id: seller.userId, params: { title: "Ligar agora", lead: "Lembrete" }, link: `/pipelines/${boardId}/deals/${deal.id}` },
      { user_id: owner.userId, params: { title: "Mandar proposta", lead: "Lembrete" }, link: `/pipelines/${boardId}/deals/${deal.id}` },
    ]);
    const stamped = await query<{ id: string; notified: boolean }>(`SELECT id, notified_at IS NOT NULL AS notified FROM pipeline_tasks WHERE id = ANY($1::uuid[]) ORDER BY title`, [
      [due1, due2, future, done],
    ]);
    expect(Object.fromEntries(stamped.map((s) => [s.id, s.notified]))).toEqual({ [due1]: true, [due2]: true, [future]: false, [done]: false });
    // The seller reads it in their notifications, in their language.
    const mine = await api("/api/notifications", { token: seller.token, lang: "en" });
    expect(mine.body.data.filter((n: { kind: string }) => n.kind === "pipeline_task_due").map((n: { message: string }) => n.message)).toEqual(["Task due: Ligar agora (Lembrete)"]);
  });
});

describe("reports", () => {
  it("value per column and owner, won/lost by period, average time in column", async () => {
    const r = await person("reports");
    const b = (await api("/api/pipelines/boards", { token: r.token, body: { name: "Relatório", columns: ["Um", "Dois"] } })).body.data;
    const [c1, c2] = (await api(`/api/pipelines/boards/${b.id}`, { token: r.token })).body.data.columns.map((c: { id: string }) => c.id);
    const mk = async (lead: string, value: number, column: string) =>
      (
        await api(`/api/pipelines/boards/${b.id}/deals`, {
          token: r.token,
          body: { lead_name: lead, description: "d", priority: "normal", due_date: "2026-12-31", value_cents: value, column_id: column },
        })
      ).body.data;
    const d1 = await mk("Um", 10000, c1);
    const d2 = await mk("Dois", 25050, c1);
    const d3 = await mk("Três", 99999, c2);
    const archived = await mk("Arquivado", 50000, c2);
    await api(`/api/pipelines/deals/${archived.id}/archive`, { method: "POST", token: r.token });
    const p = (await query<{ id: string }>(`INSERT INTO catalog_products (account_id, name, price_cents) VALUES ($1, 'P', 1000) RETURNING id`, [r.accountId]))[0].id;
    await api(`/api/pipelines/deals/${d1.id}/products`, { token: r.token, body: { product_id: p, quantity: 3, discount_cents: 100 } });
    // Outcomes on fixed São Paulo days; stays of fixed lengths.
    await api(`/api/pipelines/deals/${d2.id}`, { method: "PUT", token: r.token, body: { outcome: "sold" } });
    await api(`/api/pipelines/deals/${d3.id}`, { method: "PUT", token: r.token, body: { outcome: "lost" } });
    await query(`UPDATE pipeline_deals SET outcome_at = '2026-11-10T02:00:00Z' WHERE id = $1`, [d2.id]); // 9 Nov in São Paulo
    await query(`UPDATE pipeline_deals SET outcome_at = '2026-11-10T15:00:00Z' WHERE id = $1`, [d3.id]);
    await api(`/api/pipelines/deals/${d1.id}/move`, { token: r.token, body: { to_column_id: c2, expected_version: 1 } });
    await query(`UPDATE pipeline_deal_moves SET entered_at = '2026-11-05T12:00:00Z', left_at = '2026-11-05T14:00:00Z' WHERE deal_id = $1 AND to_column_id = $2`, [d1.id, c1]);
    await query(`UPDATE pipeline_deal_moves SET left_at = '2026-11-06T12:00:00Z', entered_at = '2026-11-05T12:00:00Z' WHERE deal_id = $1`, [archived.id]);

    const res = await api(`/api/pipelines/reports?board_id=${b.id}&from=2026-11-01&to=2026-11-30&group=day`, { token: r.token });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const data = res.body.data;
    expect(data.currency).toBe("BRL");
    expect(data.by_column.map((c: Record<string, unknown>) => [c.column_name, c.deals, c.value_cents, c.products_cents])).toEqual([
      ["Um", 1, 25050, 0],
      ["Dois", 2, 109999, 2900],
    ]);
    expect(data.by_owner).toEqual([{ owner_id: r.userId, owner_name: "Teste reports", deals: 3, value_cents: 135049, products_cents: 2900 }]);
    expect(data.outcomes).toEqual([
      { period: "2026-11-09", sold: 1, sold_cents: 25050, lost: 0, lost_cents: 0 },
      { period: "2026-11-10", sold: 0, sold_cents: 0, lost: 1, lost_cents: 99999 },
    ]);
    expect(data.totals).toEqual({ sold: 1, sold_cents: 25050, lost: 1, lost_cents: 99999 });
    expect(data.time_in_column.map((c: Record<string, unknown>) => [c.column_name, c.stays, c.average_seconds, c.current])).toEqual([
      ["Um", 1, 7200, 1],
      ["Dois", 1, 86400, 2],
    ]);
    const month = await api(`/api/pipelines/reports?board_id=${b.id}&from=2026-11-01&to=2026-11-30&group=month`, { token: r.token });
    expect(month.body.data.outcomes).toEqual([{ period: "2026-11-01", sold: 1, sold_cents: 25050, lost: 1, lost_cents: 99999 }]);
    const outside = await api(`/api/pipelines/reports?board_id=${b.id}&from=2026-11-10&to=2026-11-10`, { token: r.token });
    expect(outside.body.data.totals).toEqual({ sold: 0, sold_cents: 0, lost: 1, lost_cents: 99999 });
    const backwards = await api(`/api/pipelines/reports?from=2026-11-10&to=2026-11-01`, { token: r.token });
    expect(backwards.status).toBe(422);
  });
});
