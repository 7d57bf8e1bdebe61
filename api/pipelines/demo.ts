/**
 * The demo account's workflow board (issue 22), for a new user trying `npm start`: the board
 * "Vendas" with five columns and a few deals (owners among the demo people, one linked to a demo
 * contact when there is one, tasks, a comment, catalogue products when the catalogue has some, one
 * deal sold). Idempotent: nothing is written when the account already has a board named "Vendas"
 * (what people changed stays).
 */
import type { Transaction } from "sequelize";
import { exec, row, rows } from "../lib/sql";

export const DEMO_BOARD = "Vendas";
const COLUMNS = ["Novos contatos", "Qualificação", "Proposta enviada", "Negociação", "Fechamento"];
type DemoDeal = { lead: string; description: string; column: number; owner: string; days: number; value: number; priority: string; channel: string; outcome?: "sold" | "lost" };
const DEALS: DemoDeal[] = [
  {
    lead: "Padaria Pão Quente",
    description: "Quer disparos de SMS para promoções do café da manhã",
    column: 0,
    owner: "sales",
    days: 5,
    value: 150_000,
    priority: "normal",
    channel: "sms",
  },
  { lead: "Clínica Sorriso", description: "Lembretes de consulta por WhatsApp", column: 0, owner: "owner", days: 3, value: 320_000, priority: "high", channel: "whatsapp" },
  {
    lead: "Academia Força Total",
    description: "Atendimento pelo chat do site e Instagram",
    column: 1,
    owner: "sales",
    days: 7,
    value: 210_000,
    priority: "normal",
    channel: "webchat",
  },
  { lead: "Imobiliária Lar Doce", description: "Campanha de e-mail para lançamentos", column: 2, owner: "admin", days: 10, value: 480_000, priority: "urgent", channel: "email" },
  { lead: "Pet Shop Amigo Fiel", description: "Cartões RCS com o catálogo de rações", column: 3, owner: "sales", days: 2, value: 95_000, priority: "low", channel: "rcs" },
  {
    lead: "Farmácia Saúde+",
    description: "Plano anual de SMS e WhatsApp",
    column: 4,
    owner: "owner",
    days: -1,
    value: 990_000,
    priority: "high",
    channel: "whatsapp",
    outcome: "sold",
  },
];

/** Answers how many rows it wrote (0 when the board exists). */
export async function seedDemoPipelines(accountId: string, transaction: Transaction): Promise<number> {
  const t = { transaction };
  if (await row(`SELECT 1 AS one FROM pipeline_boards WHERE account_id = $1 AND name = $2`, [accountId, DEMO_BOARD], t)) return 0;
  const people = await rows<{ email: string; id: string }>(
    `SELECT u.email::text AS email, u.id FROM memberships m JOIN users u ON u.id = m.user_id WHERE m.account_id = $1`,
    [accountId],
    t,
  );
  const byRole = (role: string) => people.find((p) => p.email === `${role}@demo.example`)?.id ?? null;
  const board = (await row<{ id: string }>(
    `INSERT INTO pipeline_boards (account_id, name, created_by) VALUES ($1, $2, $3) RETURNING id`,
    [accountId, DEMO_BOARD, byRole("owner")],
    t,
  ))!;
  const columns = (
    await rows<{ id: string; position: number }>(
      `INSERT INTO pipeline_columns (account_id, board_id, name, position) SELECT $1::uuid, $2::uuid, n, i FROM unnest($3::text[]) WITH ORDINALITY AS x(n, i) RETURNING id, position`,
      [accountId, board.id, COLUMNS],
      t,
    )
  ).sort((x, y) => x.position - y.position);
  const contact = await row<{ id: string }>(`SELECT id FROM contacts WHERE account_id = $1 ORDER BY created_at, id LIMIT 1`, [accountId], t);
  const products = await rows<{ id: string; name: string; unit: number }>(
    `SELECT id, name, (price_cents - discount_cents)::bigint AS unit FROM catalog_products WHERE account_id = $1 ORDER BY created_at, id LIMIT 2`,
    [accountId],
    t,
  );
  let written = 1 + columns.length;
  for (const [i, d] of DEALS.entries()) {
    const deal = (await row<{ id: string }>(
      `INSERT INTO pipeline_deals (account_id, board_id, column_id, position, lead_name, description, owner_id, due_date, channel, value_cents, priority, outcome, outcome_at, contact_id, created_by)
       VALUES ($1, $2, $3, $4, $5, $6, $7, (now() AT TIME ZONE 'America/Sao_Paulo')::date + $8::int, $9, $10, $11, $12, CASE WHEN $12::text IS NULL THEN NULL ELSE now() END, $13, $7)
       RETURNING id`,
      [
        accountId,
        board.id,
        columns[d.column].id,
        (i + 1) * 1024,
        d.lead,
        d.description,
        byRole(d.owner),
        d.days,
        d.channel,
        d.value,
        d.priority,
        d.outcome ?? null,
        i === 1 ? (contact?.id ?? null) : null,
      ],
      t,
    ))!;
    // Its history: created in the first column, moved along to its column a day per column.
    for (let c = 0; c <= d.column; c++) {
      await exec(
        `INSERT INTO pipeline_deal_moves (account_id, board_id, deal_id, from_column_id, to_column_id, moved_by, entered_at, left_at)
         VALUES ($1, $2, $3, $4, $5, $6, now() - make_interval(days => $7), CASE WHEN $8 THEN NULL ELSE now() - make_interval(days => $7 - 1) END)`,
        [accountId, board.id, deal.id, c === 0 ? null : columns[c - 1].id, columns[c].id, byRole(d.owner), d.column - c + 1, c === d.column],
        t,
      );
    }
    await exec(
      `INSERT INTO pipeline_tasks (account_id, deal_id, title, description, priority, due_at, owner_id, done_at) VALUES ($1, $2, $3, $8, $4, now() + make_interval(days => $5), $6, $7)`,
      [
        accountId,
        deal.id,
        i % 2 ? "Enviar proposta" : "Ligar para o cliente",
        d.priority,
        Math.max(1, d.days),
        byRole(d.owner),
        d.outcome ? new Date() : null,
        i % 2 ? "Proposta com os preços do plano" : "Entender o volume de mensagens",
      ],
      t,
    );
    written += 2 + d.column + 1;
    if (products.length && i < 3) {
      const p = products[i % products.length];
      await exec(
        `INSERT INTO pipeline_deal_products (account_id, deal_id, product_id, name, unit_price_cents, quantity, discount_cents) VALUES ($1, $2, $3, $4, $5, $6, 0)`,
        [accountId, deal.id, p.id, p.name, p.unit, i + 1],
        t,
      );
      written++;
    }
  }
  const first = await row<{ id: string }>(`SELECT id FROM pipeline_deals WHERE account_id = $1 AND board_id = $2 ORDER BY position LIMIT 1`, [accountId, board.id], t);
  if (first) {
    await exec(
      `INSERT INTO pipeline_comments (account_id, deal_id, author_id, body) VALUES ($1, $2, $3, $4)`,
      [accountId, first.id, byRole("sales"), "Cliente pediu uma demonstração na próxima semana."],
      t,
    );
    written++;
  }
  return written;
}
