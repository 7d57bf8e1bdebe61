/**
 * The workflow boards' screens through the web process, as a browser without JavaScript (issue
 * 22): a board created with its first columns; columns added, refused (same name in any case,
 * blank, the 31st) with the translated messages, renamed, reordered and deleted with their cards
 * moved; a card added and moved with the card's move form, and the board script's move answering
 * JSON (200 with the new version, 409 when the card changed meanwhile); the deal page with its
 * fields, tasks, comments and catalogue products and their total; "create deal" from a contact and
 * from a live-chat room, listed on the contact's page and the room; the reports. Another account's
 * ids answer 404 on every screen.
 */
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { query } from "../support/db";
import { giveOmni, makeContact, makeLiveRoom } from "../support/factories";
import { location, signedInCustomer, type WebCustomer } from "../support/web";

const ptBR = JSON.parse(readFileSync(resolve(__dirname, "../../public/locales/pt-BR/pipelines.json"), "utf8"));
const text = (key: string): string => key.split(".").reduce((o, k) => o[k], ptBR);
/** HTML-escaped as React renders text. */
const html = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;").replace(/'/g, "&#x27;");

let owner: WebCustomer;
let stranger: WebCustomer;
let boardId: string;
let cols: Record<string, string>;

async function columnsOf(board: string) {
  const rows = await query<{ id: string; name: string }>(`SELECT id, name FROM pipeline_columns WHERE board_id = $1 ORDER BY position`, [board]);
  return rows;
}
async function addDeal(client: WebCustomer["client"], board: string, column: string, lead: string, extra: Record<string, string> = {}) {
  const res = await client.post(`/pipelines/${board}`, {
    intent: "deal-add",
    column_id: column,
    lead_name: lead,
    description: `Proposta ${lead}`,
    due_date: "2030-01-31",
    priority: "high",
    value: "1.234,50",
    ...extra,
  });
  expect(res.status).toBe(302);
  const [deal] = await query<{ id: string; version: number; column_id: string }>(`SELECT id, version, column_id FROM pipeline_deals WHERE board_id = $1 AND lead_name = $2`, [
    board,
    lead,
  ]);
  return deal;
}

beforeAll(async () => {
  owner = await signedInCustomer("boardsweb");
  stranger = await signedInCustomer("boardsweb2");
  const res = await owner.client.post("/pipelines?index", { intent: "board-create", name: "Vendas", columns: "Novo\nProposta\nGanho" });
  expect(res.status).toBe(302);
  boardId = location(res)!.split("/").pop()!;
  cols = Object.fromEntries((await columnsOf(boardId)).map((c) => [c.name, c.id]));
});

describe("boards and columns without JavaScript", () => {
  it("lists the board with its figures and shows its columns in order; another account's board is not found", async () => {
    const list = await owner.client.page("/pipelines");
    expect(list.res.status).toBe(200);
    expect(list.html).toContain(`data-board-id="${boardId}"`);
    const board = await owner.client.page(`/pipelines/${boardId}`);
    expect(board.res.status).toBe(200);
    const order = [...board.html.matchAll(/data-column-id="([0-9a-f-]{36})"/g)].map((m) => m[1]);
    expect(order).toEqual([cols.Novo, cols.Proposta, cols.Ganho]);
    expect((await stranger.client.get(`/pipelines/${boardId}`)).status).toBe(404);
    expect((await stranger.client.post(`/pipelines/${boardId}`, { intent: "column-add", name: "Intrusa" })).status).toBe(404);
    expect((await stranger.client.page("/pipelines")).html).not.toContain(boardId);
  });

  it("refuses a column named like another (any case), a blank name and the 31st column, with the translated messages", async () => {
    const dup = await owner.client.post(`/pipelines/${boardId}`, { intent: "column-add", name: "  proposta " });
    expect(dup.status).toBeGreaterThanOrEqual(400);
    expect(await dup.text()).toContain(html(text("errors.columnNameTaken")));
    const blank = await owner.client.post(`/pipelines/${boardId}`, { intent: "column-add", name: "   " });
    expect(blank.status).toBe(422);
    expect(await blank.text()).toContain(html(text("errors.columnNameRequired")));

    const other = await owner.client.post("/pipelines?index", { intent: "board-create", name: "Cheio", columns: Array.from({ length: 30 }, (_, i) => `C${i + 1}`).join("\n") });
    const full = location(other)!.split("/").pop()!;
    const res = await owner.client.post(`/pipelines/${full}`, { intent: "column-add", name: "C31" });
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(await res.text()).toContain(html(text("errors.maxColumns")));
    expect((await columnsOf(full)).length).toBe(30);
  });

  it("adds, renames, moves and deletes a column (its cards go to the column chosen)", async () => {
    const add = await owner.client.post(`/pipelines/${boardId}`, { intent: "column-add", name: "Perdido" });
    expect(add.status).toBe(302);
    let list = await columnsOf(boardId);
    const perdido = list.find((c) => c.name === "Perdido")!.id;
    expect(list.at(-1)!.id).toBe(perdido);
    expect((await owner.client.post(`/pipelines/${boardId}`, { intent: "column-rename", column_id: perdido, name: "Descartado" })).status).toBe(302);
    expect((await owner.client.post(`/pipelines/${boardId}`, { intent: "column-move", column_id: perdido, direction: "left" })).status).toBe(302);
    list = await columnsOf(boardId);
    expect(list.map((c) => c.name)).toEqual(["Novo", "Proposta", "Descartado", "Ganho"]);
    const deal = await addDeal(owner.client, boardId, perdido, "Caio Reis");
    const del = await owner.client.post(`/pipelines/${boardId}`, { intent: "column-delete", column_id: perdido, move_cards_to: cols.Novo });
    expect(del.status).toBe(302);
    expect((await columnsOf(boardId)).map((c) => c.name)).toEqual(["Novo", "Proposta", "Ganho"]);
    expect((await query<{ column_id: string }>(`SELECT column_id FROM pipeline_deals WHERE id = $1`, [deal.id]))[0].column_id).toBe(cols.Novo);
  });
});

describe("cards", () => {
  it("a card shows its value in the account's currency, priority and due date; the move form moves it; the board script's move answers JSON and 409 on a stale version", async () => {
    const deal = await addDeal(owner.client, boardId, cols.Novo, "Ana Lima");
    const page = (await owner.client.page(`/pipelines/${boardId}`)).html;
    expect(page).toMatch(/R\$\s1\.234,50/);
    expect(page).toContain(text("priority.high"));
    expect(page).toContain("31/01/30");
    expect(page).toContain(`data-move-form="${deal.id}"`);

    // The card's own form (no JavaScript): to the end of the column chosen.
    const moved = await owner.client.post(`/pipelines/${boardId}`, { intent: "deal-move", id: deal.id, to_column_id: cols.Proposta, expected_version: String(deal.version) });
    expect(moved.status).toBe(302);
    const [after] = await query<{ column_id: string; version: number }>(`SELECT column_id, version FROM pipeline_deals WHERE id = $1`, [deal.id]);
    expect(after.column_id).toBe(cols.Proposta);

    // The board script's move (a fetcher: Remix's `_data`): JSON.
    const script = `/pipelines/${boardId}?_data=${encodeURIComponent("routes/_app.pipelines.$id")}`;
    const ok = await owner.client.post(script, {
      intent: "deal-move",
      reply: "json",
      id: deal.id,
      to_column_id: cols.Ganho,
      position: "0",
      expected_version: String(after.version),
    });
    expect(ok.status).toBe(200);
    expect(await ok.json()).toEqual({ ok: true, version: after.version + 1 });
    const stale = await owner.client.post(script, {
      intent: "deal-move",
      reply: "json",
      id: deal.id,
      to_column_id: cols.Novo,
      position: "0",
      expected_version: String(after.version),
    });
    expect(stale.status).toBe(409);
    expect(await stale.json()).toEqual({ ok: false, conflict: true });
    expect((await query<{ column_id: string }>(`SELECT column_id FROM pipeline_deals WHERE id = $1`, [deal.id]))[0].column_id).toBe(cols.Ganho);
    // Without JavaScript a stale move says why, on the board.
    const staleForm = await owner.client.post(`/pipelines/${boardId}`, { intent: "deal-move", id: deal.id, to_column_id: cols.Novo, expected_version: String(after.version) });
    expect(staleForm.status).toBe(302);
    expect((await owner.client.page(location(staleForm)!)).html).toContain(html(text("board.conflict")));

    // Another account cannot move it.
    expect((await stranger.client.post(`/pipelines/${boardId}`, { intent: "deal-move", id: deal.id, to_column_id: cols.Novo, expected_version: "99" })).status).toBe(404);
  });

  it("a card's lead name over 25 characters is refused with its field's message", async () => {
    const res = await owner.client.post(`/pipelines/${boardId}`, {
      intent: "deal-add",
      column_id: cols.Novo,
      lead_name: "x".repeat(26),
      description: "d",
      due_date: "2030-01-31",
      priority: "low",
    });
    expect(res.status).toBe(422);
    const body = await res.text();
    expect(body).toContain('aria-invalid="true"');
    expect((await query(`SELECT 1 FROM pipeline_deals WHERE board_id = $1 AND description = 'd'`, [boardId])).length).toBe(0);
  });
});

describe("the deal page", () => {
  it("edits every field, toggles tasks, comments, adds catalogue products with the total, duplicates and archives; other boards' and accounts' ids are not found", async () => {
    const deal = await addDeal(owner.client, boardId, cols.Novo, "Bia Souza");
    const path = `/pipelines/${boardId}/deals/${deal.id}`;
    const first = await owner.client.page(path);
    expect(first.res.status).toBe(200);
    expect(first.html).toContain("Bia Souza");
    expect((await stranger.client.get(path)).status).toBe(404);
    const otherBoard = location(await owner.client.post("/pipelines?index", { intent: "board-create", name: "Outro", columns: "A" }))!
      .split("/")
      .pop()!;
    expect((await owner.client.get(`/pipelines/${otherBoard}/deals/${deal.id}`)).status).toBe(404);

    const save = await owner.client.post(path, {
      intent: "deal-update",
      lead_name: "Bia Souza Ltda",
      description: "Renovação anual",
      owner_id: owner.userId,
      due_date: "2030-02-28",
      channel: "whatsapp",
      value: "2500",
      priority: "urgent",
      outcome: "sold",
    });
    expect(save.status).toBe(302);
    const [row] = await query<{ lead_name: string; value_cents: string; priority: string; outcome: string; channel: string }>(
      `SELECT lead_name, value_cents, priority, outcome, channel FROM pipeline_deals WHERE id = $1`,
      [deal.id],
    );
    expect(row).toEqual({ lead_name: "Bia Souza Ltda", value_cents: "250000", priority: "urgent", outcome: "sold", channel: "whatsapp" });
    const tooLong = await owner.client.post(path, { intent: "deal-update", description: "y".repeat(201) });
    expect(tooLong.status).toBe(422);

    expect((await owner.client.post(path, { intent: "task-add", title: "Ligar", description: "Confirmar a renovação", priority: "high", due_at: "2030-02-01T10:00" })).status).toBe(
      302,
    );
    const [task] = await query<{ id: string }>(`SELECT id FROM pipeline_tasks WHERE deal_id = $1`, [deal.id]);
    expect((await owner.client.post(path, { intent: "task-toggle", id: task.id })).status).toBe(302);
    expect((await query<{ done: boolean }>(`SELECT done_at IS NOT NULL AS done FROM pipeline_tasks WHERE id = $1`, [task.id]))[0].done).toBe(true);
    expect((await stranger.client.post(path, { intent: "task-toggle", id: task.id })).status).toBe(404);

    expect((await owner.client.post(path, { intent: "comment-add", body: "Cliente pediu desconto" })).status).toBe(302);

    const [product] = await query<{ id: string }>(
      `INSERT INTO catalog_products (account_id, name, price_cents, discount_cents) VALUES ($1, 'Plano Anual', 10000, 1000) RETURNING id`,
      [owner.accountId],
    );
    expect((await owner.client.post(path, { intent: "product-add", product_id: product.id, quantity: "3", discount: "7,00" })).status).toBe(302);
    const page = (await owner.client.page(path)).html;
    expect(page).toContain("Cliente pediu desconto");
    expect(page).toContain('data-done="true"');
    expect(page).toMatch(/data-products-total="?[^>]*>R\$\s263,00/); // 3 × 90,00 − 7,00
    expect(page).toContain(html(text("outcome.sold")));

    const dup = await owner.client.post(path, { intent: "duplicate" });
    expect(dup.status).toBe(302);
    expect(location(dup)).not.toBe(path);
    expect((await owner.client.post(path, { intent: "archive" })).status).toBe(302);
    expect((await query<{ archived: boolean }>(`SELECT archived_at IS NOT NULL AS archived FROM pipeline_deals WHERE id = $1`, [deal.id]))[0].archived).toBe(true);
    expect((await owner.client.page(`/pipelines/${boardId}`)).html).not.toContain(`data-deal-id="${deal.id}"`);
  });
});

describe("deals of contacts and live-chat rooms", () => {
  it("create deal from a contact's page: the deal is linked, and the contact's page lists it", async () => {
    const contactId = await makeContact(owner.accountId, { firstName: "Carla", lastName: "Mendes", mobileNumber: "+5511988887777" });
    const contactPage = await owner.client.page(`/contacts/${contactId}`);
    expect(contactPage.html).toContain('value="deal-from-contact"');
    const res = await owner.client.post("/pipelines?index", { intent: "deal-from-contact", contact_id: contactId, board_id: boardId });
    expect(res.status).toBe(302);
    const [deal] = await query<{ id: string; lead_name: string }>(`SELECT id, lead_name FROM pipeline_deals WHERE contact_id = $1`, [contactId]);
    expect(location(res)).toBe(`/pipelines/${boardId}/deals/${deal.id}`);
    expect(deal.lead_name).toBe("Carla Mendes");
    expect((await owner.client.page(`/contacts/${contactId}`)).html).toContain(`data-linked-deal="${deal.id}"`);
    expect((await owner.client.page(location(res)!)).html).toContain(`data-linked-contact="${contactId}"`);
    // Another account's contact: not found.
    expect((await stranger.client.post("/pipelines?index", { intent: "deal-from-contact", contact_id: contactId })).status).toBe(404);
  });

  it("create deal from a live-chat room: the deal shows the conversation, and the room lists the deal", async () => {
    await giveOmni(owner.accountId);
    const roomId = await makeLiveRoom(owner.accountId, { username: "Davi Visitante", channel: "webchat" });
    const res = await owner.client.post("/pipelines?index", { intent: "deal-from-room", room_id: roomId, board_id: boardId });
    expect(res.status).toBe(302);
    const [deal] = await query<{ id: string }>(`SELECT id FROM pipeline_deals WHERE room_id = $1`, [roomId]);
    expect((await owner.client.page(location(res)!)).html).toContain(`data-linked-room="${roomId}"`);
    const desk = await owner.client.page(`/live?tab=closed&room=${roomId}`);
    expect(desk.res.status).toBe(200);
    expect(desk.html).toContain(`data-linked-deal="${deal.id}"`);
  });
});

describe("reports", () => {
  it("shows value per column and owner, won/lost by period and time in column; a bad period says which field", async () => {
    const { res, html: page } = await owner.client.page(`/pipelines/reports?board_id=${boardId}`);
    expect(res.status).toBe(200);
    for (const r of ["by-column", "by-owner", "time-in-column"]) expect(page).toContain(`data-report="${r}"`);
    const bad = await owner.client.page("/pipelines/reports?from=2030-02-01&to=2030-01-01");
    expect(bad.res.status).toBe(200);
    expect(bad.html).toContain('aria-invalid="true"');
    expect((await stranger.client.get(`/pipelines/reports?board_id=${boardId}`)).status).toBe(404);
  });
});
