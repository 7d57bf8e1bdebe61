/**
 * Workflow boards through the API (issue 22; spec section 5): boards and their columns (at most 30,
 * names required and unique in any case: the spec's messages, translated), rename, reorder, delete
 * with its cards moved; deals (lead name 25, description 200, priority and due date required),
 * archive, restore, duplicate; tasks done/undone; comments; catalogue products with quantity and
 * discount and the total in integer centavos. Roles are the policy's (a billing member does not
 * reach /pipelines); every resource of another account answers 404 and stays unchanged.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { api, login, registerPerson } from "../support/api";
import { query } from "../support/db";
import { addMember } from "../support/factories";

type Token = { token: string; accountId: string; userId: string };
let owner: Token;
let other: Token;
let billing: Token;

async function person(tag: string): Promise<Token> {
  const p = await registerPerson(tag);
  return { token: (await login(p.email, p.password)).token, accountId: p.accountId, userId: p.userId };
}
const deal = (over: Record<string, unknown> = {}) => ({
  lead_name: "Padaria Pão Quente",
  description: "SMS de promoções",
  priority: "high",
  due_date: "2026-12-20",
  value_cents: 150000,
  ...over,
});
const product = async (accountId: string, name: string, price: number, discount = 0) =>
  (
    await query<{ id: string }>(`INSERT INTO catalog_products (account_id, name, price_cents, discount_cents) VALUES ($1, $2, $3, $4) RETURNING id`, [
      accountId,
      name,
      price,
      discount,
    ])
  )[0].id;

beforeAll(async () => {
  owner = await person("boards");
  other = await person("boardsother");
  const b = await registerPerson("boardsbilling");
  await addMember(owner.accountId, b.userId, { role: "billing" });
  billing = { token: (await login(b.email, b.password)).token, accountId: owner.accountId, userId: b.userId };
});

describe("boards and columns", () => {
  let boardId: string;
  let cols: Array<{ id: string; name: string }>;

  it("creates a board with its first columns, in order; lists and reads it", async () => {
    const res = await api("/api/pipelines/boards", { token: owner.token, body: { name: "Vendas", columns: ["Novos", "Proposta", "Fechado"] } });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    boardId = res.body.data.id;
    expect(res.headers.get("location")).toBe(`/api/pipelines/boards/${boardId}`);
    const read = await api(`/api/pipelines/boards/${boardId}`, { token: owner.token });
    expect(read.status).toBe(200);
    expect(read.body.data).toMatchObject({ name: "Vendas", currency: "BRL" });
    cols = read.body.data.columns;
    expect(cols.map((c) => c.name)).toEqual(["Novos", "Proposta", "Fechado"]);
    const list = await api("/api/pipelines/boards", { token: owner.token });
    expect(list.body).toMatchObject({ next_cursor: null, data: [{ id: boardId, name: "Vendas", columns: 3, deals: 0, value_cents: 0 }] });
  });

  it("refuses a column without a name, and a name another column has in any case, with the spec's messages", async () => {
    const blank = await api(`/api/pipelines/boards/${boardId}/columns`, { token: owner.token, body: { name: "   " }, lang: "en" });
    expect(blank.status).toBe(422);
    expect(blank.body.error.fields.name).toEqual(["Column name is required"]);
    const missing = await api(`/api/pipelines/boards/${boardId}/columns`, { token: owner.token, body: {}, lang: "pt-BR" });
    expect(missing.body.error.fields.name).toEqual(["O nome da coluna é obrigatório"]);
    const taken = await api(`/api/pipelines/boards/${boardId}/columns`, { token: owner.token, body: { name: "  proposta " }, lang: "en" });
    expect(taken.status).toBe(422);
    expect(taken.body.error.fields.name).toEqual(["A column with the same name already exists"]);
    const renameTaken = await api(`/api/pipelines/columns/${cols[0].id}`, { method: "PUT", token: owner.token, body: { name: "FECHADO" }, lang: "pt-BR" });
    expect(renameTaken.body.error.fields.name).toEqual(["Já existe uma coluna com o mesmo nome"]);
    // Renaming a column to its own name in another case is fine.
    const self = await api(`/api/pipelines/columns/${cols[0].id}`, { method: "PUT", token: owner.token, body: { name: "NOVOS" } });
    expect(self.status).toBe(200);
    expect(self.body.data.name).toBe("NOVOS");
    const dupOnCreate = await api("/api/pipelines/boards", { token: owner.token, body: { name: "Dup", columns: ["A", "a"] }, lang: "en" });
    expect(dupOnCreate.body.error.fields["columns.1"]).toEqual(["A column with the same name already exists"]);
  });

  it("holds at most 30 columns: the 31st is 'Maximum columns reached', also when asked at once", async () => {
    const b = await api("/api/pipelines/boards", { token: owner.token, body: { name: "Cheio", columns: Array.from({ length: 28 }, (_, i) => `C${i + 1}`) } });
    const id = b.body.data.id;
    // Three at once for the last two places: the board's lock lets exactly two in.
    const three = await Promise.all(["X", "Y", "Z"].map((name) => api(`/api/pipelines/boards/${id}/columns`, { token: owner.token, body: { name }, lang: "en" })));
    expect(three.map((r) => r.status).sort()).toEqual([201, 201, 422]);
    expect(three.find((r) => r.status === 422)!.body.error.fields.name).toEqual(["Maximum columns reached"]);
    expect((await query(`SELECT count(*)::int AS n FROM pipeline_columns WHERE board_id = $1`, [id]))[0].n).toBe(30);
    const tooMany = await api("/api/pipelines/boards", { token: owner.token, body: { name: "Demais", columns: Array.from({ length: 31 }, (_, i) => `C${i}`) }, lang: "en" });
    expect(tooMany.body.error.fields.columns).toEqual(["Maximum columns reached"]);
  });

  it("reorders columns: every column once, else 422", async () => {
    const order = [cols[2].id, cols[0].id, cols[1].id];
    const res = await api(`/api/pipelines/boards/${boardId}/columns/order`, { method: "PUT", token: owner.token, body: { column_ids: order } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data.map((c: { id: string }) => c.id)).toEqual(order);
    const partial = await api(`/api/pipelines/boards/${boardId}/columns/order`, { method: "PUT", token: owner.token, body: { column_ids: order.slice(1) }, lang: "en" });
    expect(partial.status).toBe(422);
    expect(partial.body.error.fields.column_ids).toEqual(["List every column of the board once, in the new order"]);
    await api(`/api/pipelines/boards/${boardId}/columns/order`, { method: "PUT", token: owner.token, body: { column_ids: cols.map((c) => c.id) } });
  });

  it("deletes a column with its cards moved after the target's cards, in their order (archived ones too)", async () => {
    const mk = async (lead: string, column: string) =>
      (await api(`/api/pipelines/boards/${boardId}/deals`, { token: owner.token, body: deal({ lead_name: lead, column_id: column }) })).body.data.id as string;
    const t1 = await mk("Alvo 1", cols[1].id);
    const s1 = await mk("Sai 1", cols[0].id);
    const s2 = await mk("Sai 2", cols[0].id);
    const s3 = await mk("Sai 3", cols[0].id);
    await api(`/api/pipelines/deals/${s3}/archive`, { method: "POST", token: owner.token });
    const need = await api(`/api/pipelines/columns/${cols[0].id}`, { method: "DELETE", token: owner.token, lang: "en" });
    expect(need.status).toBe(422);
    expect(need.body.error.fields.move_cards_to).toEqual(["Choose the column that receives this column's cards"]);
    const self = await api(`/api/pipelines/columns/${cols[0].id}?move_cards_to=${cols[0].id}`, { method: "DELETE", token: owner.token });
    expect(self.status).toBe(422);
    const res = await api(`/api/pipelines/columns/${cols[0].id}?move_cards_to=${cols[1].id}`, { method: "DELETE", token: owner.token });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toEqual({ deleted: 1, moved: 3 });
    const board = await api(`/api/pipelines/boards/${boardId}`, { token: owner.token });
    expect(board.body.data.columns.map((c: { name: string }) => c.name)).toEqual(["Proposta", "Fechado"]);
    expect(board.body.data.columns[0].deals.map((d: { id: string }) => d.id)).toEqual([t1, s1, s2]);
    expect((await query(`SELECT column_id FROM pipeline_deals WHERE id = $1`, [s3]))[0].column_id).toBe(cols[1].id);
    // Their history: each live moved deal left the deleted column for the target.
    const stays = await query(`SELECT from_column_id, to_column_id FROM pipeline_deal_moves WHERE deal_id = $1 ORDER BY id`, [s1]);
    expect(stays).toEqual([
      { from_column_id: null, to_column_id: null }, // the deleted column's stay (its column is gone)
      { from_column_id: null, to_column_id: cols[1].id },
    ]);
    // An empty column goes without a target.
    const empty = await api(`/api/pipelines/boards/${boardId}/columns`, { token: owner.token, body: { name: "Vazia" } });
    expect((await api(`/api/pipelines/columns/${empty.body.data.id}`, { method: "DELETE", token: owner.token })).body).toEqual({ deleted: 1, moved: 0 });
  });

  it("renames and deletes a board", async () => {
    const b = await api("/api/pipelines/boards", { token: owner.token, body: { name: "Temporário", columns: ["Um"] } });
    const id = b.body.data.id;
    const renamed = await api(`/api/pipelines/boards/${id}`, { method: "PUT", token: owner.token, body: { name: "Pós-venda" } });
    expect(renamed.body.data.name).toBe("Pós-venda");
    await api(`/api/pipelines/boards/${id}/deals`, { token: owner.token, body: deal() });
    expect((await api(`/api/pipelines/boards/${id}`, { method: "DELETE", token: owner.token })).body).toEqual({ deleted: 1 });
    expect((await api(`/api/pipelines/boards/${id}`, { token: owner.token })).status).toBe(404);
    expect(await query(`SELECT 1 FROM pipeline_deals WHERE board_id = $1`, [id])).toHaveLength(0);
  });
});

describe("deals", () => {
  let boardId: string;
  let colA: string;
  let colB: string;
  beforeAll(async () => {
    const b = await api("/api/pipelines/boards", { token: owner.token, body: { name: "Negócios", columns: ["A", "B"] } });
    boardId = b.body.data.id;
    const cols = (await api(`/api/pipelines/boards/${boardId}`, { token: owner.token })).body.data.columns;
    [colA, colB] = cols.map((c: { id: string }) => c.id);
  });

  it("creates a deal at the end of the first column, owned by the caller, value in centavos", async () => {
    const res = await api(`/api/pipelines/boards/${boardId}/deals`, { token: owner.token, body: deal({ value: "1.234,56", channel: "whatsapp", priority: "medium" }) });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.headers.get("location")).toBe(`/api/pipelines/deals/${res.body.data.id}`);
    expect(res.body.data).toMatchObject({
      column_id: colA,
      owner_id: owner.userId,
      value_cents: 123456,
      priority: "normal",
      channel: "whatsapp",
      due_date: "2026-12-20",
      version: 1,
      outcome: null,
    });
  });

  it("refuses a lead name over 25, a description over 200, missing priority, date, lead name or description, naming each", async () => {
    const long = await api(`/api/pipelines/boards/${boardId}/deals`, {
      token: owner.token,
      body: deal({ lead_name: "x".repeat(26), description: "y".repeat(201) }),
      lang: "en",
    });
    expect(long.status).toBe(422);
    expect(long.body.error.fields.lead_name).toEqual([expect.stringMatching(/25/)]);
    expect(long.body.error.fields.description).toEqual([expect.stringMatching(/200/)]);
    const missing = await api(`/api/pipelines/boards/${boardId}/deals`, { token: owner.token, body: { lead_name: " ", description: "" }, lang: "en" });
    expect(missing.status).toBe(422);
    expect(Object.keys(missing.body.error.fields).sort()).toEqual(["description", "due_date", "lead_name", "priority"]);
    const bad = await api(`/api/pipelines/boards/${boardId}/deals`, { token: owner.token, body: deal({ priority: "soon", due_date: "2026-02-30" }) });
    expect(Object.keys(bad.body.error.fields).sort()).toEqual(["due_date", "priority"]);
    // Exactly 25 and 200 are fine.
    const edge = await api(`/api/pipelines/boards/${boardId}/deals`, { token: owner.token, body: deal({ lead_name: "x".repeat(25), description: "y".repeat(200) }) });
    expect(edge.status).toBe(201);
  });

  it("updates fields and the outcome (sold stamps when; null reopens), raising the version", async () => {
    const d = (await api(`/api/pipelines/boards/${boardId}/deals`, { token: owner.token, body: deal({ lead_name: "Editar" }) })).body.data;
    const sold = await api(`/api/pipelines/deals/${d.id}`, { method: "PUT", token: owner.token, body: { outcome: "sold", lead_name: "Editado" } });
    expect(sold.status, JSON.stringify(sold.body)).toBe(200);
    expect(sold.body.data).toMatchObject({ outcome: "sold", lead_name: "Editado", version: 2, description: "SMS de promoções" });
    expect(sold.body.data.outcome_at).toBeTruthy();
    const reopen = await api(`/api/pipelines/deals/${d.id}`, { method: "PUT", token: owner.token, body: { outcome: null } });
    expect(reopen.body.data).toMatchObject({ outcome: null, outcome_at: null, version: 3 });
    const tooLong = await api(`/api/pipelines/deals/${d.id}`, { method: "PUT", token: owner.token, body: { lead_name: "z".repeat(26) } });
    expect(tooLong.status).toBe(422);
    const stranger = await api(`/api/pipelines/deals/${d.id}`, { method: "PUT", token: owner.token, body: { owner_id: other.userId }, lang: "en" });
    expect(stranger.body.error.fields.owner_id).toEqual(["The owner must be a member of this account"]);
  });

  it("archives (off the board, kept), restores at the column's end, duplicates with tasks and products but not comments", async () => {
    const d = (await api(`/api/pipelines/boards/${boardId}/deals`, { token: owner.token, body: deal({ lead_name: "Arquivar", column_id: colB }) })).body.data;
    await api(`/api/pipelines/boards/${boardId}/deals`, { token: owner.token, body: deal({ lead_name: "Depois", column_id: colB }) });
    const archived = await api(`/api/pipelines/deals/${d.id}/archive`, { method: "POST", token: owner.token });
    expect(archived.body.data.archived_at).toBeTruthy();
    let board = await api(`/api/pipelines/boards/${boardId}`, { token: owner.token });
    expect(board.body.data.columns[1].deals.map((x: { lead_name: string }) => x.lead_name)).toEqual(["Depois"]);
    expect((await api(`/api/pipelines/boards/${boardId}/archived`, { token: owner.token })).body.data.map((x: { id: string }) => x.id)).toEqual([d.id]);
    await api(`/api/pipelines/deals/${d.id}/restore`, { method: "POST", token: owner.token });
    board = await api(`/api/pipelines/boards/${boardId}`, { token: owner.token });
    expect(board.body.data.columns[1].deals.map((x: { lead_name: string }) => x.lead_name)).toEqual(["Depois", "Arquivar"]);

    const p = await product(owner.accountId, "Pacote SMS", 10000, 1000);
    await api(`/api/pipelines/deals/${d.id}/tasks`, {
      token: owner.token,
      body: { title: "Ligar", description: "Confirmar o pedido", priority: "urgent", due_at: "2026-12-01T10:00" },
    });
    await api(`/api/pipelines/deals/${d.id}/comments`, { token: owner.token, body: { body: "Primeiro contato" } });
    await api(`/api/pipelines/deals/${d.id}/products`, { token: owner.token, body: { product_id: p, quantity: 2, discount_cents: 500 } });
    const copy = await api(`/api/pipelines/deals/${d.id}/duplicate`, { method: "POST", token: owner.token });
    expect(copy.status, JSON.stringify(copy.body)).toBe(201);
    expect(copy.body.data.id).not.toBe(d.id);
    expect(copy.body.data).toMatchObject({ lead_name: "Arquivar", column_id: colB, outcome: null, tasks_total: 1, tasks_done: 0 });
    const full = await api(`/api/pipelines/deals/${copy.body.data.id}`, { token: owner.token });
    expect(full.body.data.comments).toEqual([]);
    expect(full.body.data.products.map((x: { name: string; quantity: number }) => [x.name, x.quantity])).toEqual([["Pacote SMS", 2]]);
    expect(full.body.data.products_total_cents).toBe(17500);
    // Right after the original in its column.
    board = await api(`/api/pipelines/boards/${boardId}`, { token: owner.token });
    expect(board.body.data.columns[1].deals.map((x: { id: string }) => x.id).slice(-2)).toEqual([d.id, copy.body.data.id]);
  });

  it("tasks: done/undone, a new due time notified again; comments: the author deletes theirs", async () => {
    const d = (await api(`/api/pipelines/boards/${boardId}/deals`, { token: owner.token, body: deal({ lead_name: "Tarefas" }) })).body.data;
    // Spec section 5: title and description required, priority and date required.
    const empty = await api(`/api/pipelines/deals/${d.id}/tasks`, { token: owner.token, body: {} });
    expect(Object.keys(empty.body.error.fields).sort()).toEqual(["description", "due_at", "priority", "title"]);
    const noDate = await api(`/api/pipelines/deals/${d.id}/tasks`, { token: owner.token, body: { title: "Sem data", description: "d", priority: "low" } });
    expect(Object.keys(noDate.body.error.fields)).toEqual(["due_at"]);
    const task = await api(`/api/pipelines/deals/${d.id}/tasks`, {
      token: owner.token,
      body: { title: "Enviar proposta", description: "Plano anual", priority: "high", due_at: "2026-12-01T09:30:00-03:00" },
    });
    expect(task.status, JSON.stringify(task.body)).toBe(201);
    expect(task.body.data).toMatchObject({ done: false, owner_id: owner.userId, due_at: "2026-12-01T12:30:00.000Z" });
    const done = await api(`/api/pipelines/tasks/${task.body.data.id}/toggle`, { method: "POST", token: owner.token, body: {} });
    expect(done.body.data.done).toBe(true);
    const undone = await api(`/api/pipelines/tasks/${task.body.data.id}/toggle`, { method: "POST", token: owner.token, body: { done: false } });
    expect(undone.body.data.done).toBe(false);
    await query(`UPDATE pipeline_tasks SET notified_at = now() WHERE id = $1`, [task.body.data.id]);
    const moved = await api(`/api/pipelines/tasks/${task.body.data.id}`, { method: "PUT", token: owner.token, body: { due_at: "2026-12-02T09:30" } });
    expect(moved.body.data).toMatchObject({ notified_at: null, due_at: "2026-12-02T12:30:00.000Z", title: "Enviar proposta" });
    expect((await api(`/api/pipelines/deals/${d.id}`, { token: owner.token })).body.data).toMatchObject({ tasks_total: 1, tasks_done: 0 });
    expect((await api(`/api/pipelines/tasks/${task.body.data.id}`, { method: "DELETE", token: owner.token })).body).toEqual({ deleted: 1 });

    const c = await api(`/api/pipelines/deals/${d.id}/comments`, { token: owner.token, body: { body: "Cliente pediu desconto" } });
    expect(c.status).toBe(201);
    expect(c.body.data).toMatchObject({ author_id: owner.userId, body: "Cliente pediu desconto" });
    expect((await api(`/api/pipelines/deals/${d.id}/comments`, { token: owner.token, body: { body: "  " } })).status).toBe(422);
    expect((await api(`/api/pipelines/comments/${c.body.data.id}`, { method: "DELETE", token: owner.token })).body).toEqual({ deleted: 1 });
  });

  it("products: unit price is the catalogue's price less its discount; the total in integer centavos; discount at most the line", async () => {
    const d = (await api(`/api/pipelines/boards/${boardId}/deals`, { token: owner.token, body: deal({ lead_name: "Produtos" }) })).body.data;
    const p1 = await product(owner.accountId, "Plano WhatsApp", 19990, 990); // unit 19000
    const p2 = await product(owner.accountId, "Créditos SMS", 333); // unit 333
    const a = await api(`/api/pipelines/deals/${d.id}/products`, { token: owner.token, body: { product_id: p1, quantity: 3, discount_cents: 1500 } });
    expect(a.status, JSON.stringify(a.body)).toBe(201);
    expect(a.body).toMatchObject({ total_cents: 55500, data: [{ unit_price_cents: 19000, quantity: 3, discount_cents: 1500, total_cents: 55500 }] });
    const b = await api(`/api/pipelines/deals/${d.id}/products`, { token: owner.token, body: { product_id: p2, quantity: 7, discount: "0,31" } });
    expect(b.body.total_cents).toBe(55500 + 333 * 7 - 31);
    const over = await api(`/api/pipelines/deals/${d.id}/products`, { token: owner.token, body: { product_id: p2, quantity: 1, discount_cents: 334 }, lang: "en" });
    expect(over.status).toBe(422);
    expect(over.body.error.fields.discount_cents).toEqual(["The discount cannot be larger than the line's price times quantity"]);
    const zeroQty = await api(`/api/pipelines/deals/${d.id}/products`, { token: owner.token, body: { product_id: p2, quantity: 0 } });
    expect(Object.keys(zeroQty.body.error.fields)).toEqual(["quantity"]);
    const line = b.body.data[1].id;
    const upd = await api(`/api/pipelines/deal-products/${line}`, { method: "PUT", token: owner.token, body: { quantity: 10, discount_cents: 0 } });
    expect(upd.body.total_cents).toBe(55500 + 3330);
    // A catalogue change later does not rewrite the deal's lines.
    await query(`UPDATE catalog_products SET price_cents = 99999 WHERE id = $1`, [p1]);
    const full = await api(`/api/pipelines/deals/${d.id}`, { token: owner.token });
    expect(full.body.data.products_total_cents).toBe(58830);
    const rm = await api(`/api/pipelines/deal-products/${line}`, { method: "DELETE", token: owner.token });
    expect(rm.body.total_cents).toBe(55500);
    // Another account's product is not in this catalogue.
    const theirs = await product(other.accountId, "Deles", 100);
    const foreign = await api(`/api/pipelines/deals/${d.id}/products`, { token: owner.token, body: { product_id: theirs, quantity: 1 }, lang: "en" });
    expect(foreign.body.error.fields.product_id).toEqual(["This catalogue product was not found"]);
  });
});

describe("roles and tenants", () => {
  it("a billing member does not reach workflow boards (the policy's allow-list): 403", async () => {
    expect((await api("/api/pipelines/boards", { token: billing.token })).status).toBe(403);
    expect((await api("/api/pipelines/reports", { token: billing.token })).status).toBe(403);
  });

  it("another account's board, column, deal, task, comment and product line are 404 and stay unchanged", async () => {
    const b = (await api("/api/pipelines/boards", { token: owner.token, body: { name: "Privado", columns: ["Um", "Dois"] } })).body.data;
    const board = (await api(`/api/pipelines/boards/${b.id}`, { token: owner.token })).body.data;
    const [c1, c2] = board.columns.map((c: { id: string }) => c.id);
    const d = (await api(`/api/pipelines/boards/${b.id}/deals`, { token: owner.token, body: deal({ lead_name: "Sigilo" }) })).body.data;
    const task = (await api(`/api/pipelines/deals/${d.id}/tasks`, { token: owner.token, body: { title: "T", description: "D", priority: "low", due_at: "2026-12-01T10:00" } })).body
      .data;
    const comment = (await api(`/api/pipelines/deals/${d.id}/comments`, { token: owner.token, body: { body: "C" } })).body.data;
    const p = await product(owner.accountId, "Meu", 1000);
    const line = (await api(`/api/pipelines/deals/${d.id}/products`, { token: owner.token, body: { product_id: p, quantity: 1 } })).body.data[0];
    const snapshot = async () => ({
      board: await query(`SELECT name FROM pipeline_boards WHERE id = $1`, [b.id]),
      cols: await query(`SELECT id, name, position FROM pipeline_columns WHERE board_id = $1 ORDER BY position`, [b.id]),
      deal: await query(`SELECT column_id, lead_name, version, archived_at FROM pipeline_deals WHERE board_id = $1 ORDER BY id`, [b.id]),
      tasks: await query(`SELECT title, done_at FROM pipeline_tasks WHERE id = $1`, [task.id]),
      comments: await query(`SELECT body FROM pipeline_comments WHERE id = $1`, [comment.id]),
      lines: await query(`SELECT quantity FROM pipeline_deal_products WHERE id = $1`, [line.id]),
    });
    const before = await snapshot();
    const attempts: Array<[string, string, unknown?]> = [
      ["GET", `/api/pipelines/boards/${b.id}`],
      ["PUT", `/api/pipelines/boards/${b.id}`, { name: "x" }],
      ["DELETE", `/api/pipelines/boards/${b.id}`],
      ["GET", `/api/pipelines/boards/${b.id}/archived`],
      ["POST", `/api/pipelines/boards/${b.id}/columns`, { name: "x" }],
      ["PUT", `/api/pipelines/boards/${b.id}/columns/order`, { column_ids: [c2, c1] }],
      ["PUT", `/api/pipelines/columns/${c1}`, { name: "x" }],
      ["DELETE", `/api/pipelines/columns/${c1}?move_cards_to=${c2}`],
      ["POST", `/api/pipelines/boards/${b.id}/deals`, deal()],
      ["GET", `/api/pipelines/deals/${d.id}`],
      ["PUT", `/api/pipelines/deals/${d.id}`, { lead_name: "x" }],
      ["DELETE", `/api/pipelines/deals/${d.id}`],
      ["POST", `/api/pipelines/deals/${d.id}/move`, { to_column_id: c2, expected_version: d.version }],
      ["POST", `/api/pipelines/deals/${d.id}/archive`],
      ["POST", `/api/pipelines/deals/${d.id}/duplicate`],
      ["POST", `/api/pipelines/deals/${d.id}/tasks`, { title: "x", description: "y", priority: "low", due_at: "2026-12-01T10:00" }],
      ["PUT", `/api/pipelines/tasks/${task.id}`, { title: "x" }],
      ["POST", `/api/pipelines/tasks/${task.id}/toggle`, {}],
      ["DELETE", `/api/pipelines/tasks/${task.id}`],
      ["POST", `/api/pipelines/deals/${d.id}/comments`, { body: "x" }],
      ["DELETE", `/api/pipelines/comments/${comment.id}`],
      ["POST", `/api/pipelines/deals/${d.id}/products`, { product_id: p, quantity: 1 }],
      ["PUT", `/api/pipelines/deal-products/${line.id}`, { quantity: 5 }],
      ["DELETE", `/api/pipelines/deal-products/${line.id}`],
      ["GET", `/api/pipelines/reports?board_id=${b.id}`],
      ["GET", `/api/pipelines/boards/not-a-uuid`],
    ];
    for (const [method, path, body] of attempts) {
      const res = await api(path, { method, token: other.token, body });
      expect(res.status, `${method} ${path}`).toBe(404);
    }
    expect(await snapshot()).toEqual(before);
    expect((await api("/api/pipelines/boards", { token: other.token })).body.data).toEqual([]);
    // Another account's column cannot receive this account's deal either.
    const theirs = (await api("/api/pipelines/boards", { token: other.token, body: { name: "Deles", columns: ["X"] } })).body.data;
    const theirCol = (await api(`/api/pipelines/boards/${theirs.id}`, { token: other.token })).body.data.columns[0].id;
    const cross = await api(`/api/pipelines/deals/${d.id}/move`, { token: owner.token, body: { to_column_id: theirCol, expected_version: d.version } });
    expect(cross.status).toBe(422);
    const crossDelete = await api(`/api/pipelines/columns/${c1}?move_cards_to=${theirCol}`, { method: "DELETE", token: owner.token });
    expect(crossDelete.status).toBe(422);
    expect(await snapshot()).toEqual(before);
  });
});
