/**
 * Reclame Aqui complaints (issue 23, ADR 067): an account connects its RA company (credentials
 * checked against RA, the secret sealed at rest), imports its complaints on demand ("Sync now") and
 * on the worker's schedule (./sync-due via api/worker.ts), answers them publicly or privately from
 * here, and reads its reputation figures computed from what was imported. RA is reached only
 * through the adapter (./client.ts: the guarded client). Every query is scoped by the acting account.
 *
 * Nothing half written: a sync reads every changed ticket first, then writes them in one
 * transaction (a failure of RA writes nothing but the connection's failing status); an answer is
 * posted to RA first and recorded after (keyed by RA's interaction id, so the next sync, which
 * brings the same interaction, never doubles it).
 */
import type { Transaction } from "sequelize";
import { sequelize } from "../../models";
import { recordAudit } from "../audit/record";
import type { Ctx, SignedInCtx } from "../lib/context";
import { seal, unseal } from "../lib/crypto";
import { AppError } from "../lib/errors";
import { decodeCursor, keyset, pageInput } from "../lib/page";
import { exec, row, rows } from "../lib/sql";
import { validate } from "../lib/validate";
import { z } from "../lib/zod";
import { assertCanWrite, can, canWrite } from "../policy/policy";
import { ANSWER_MAX, RA_STATUSES } from "./constants";
import { type RaCredentials, RaError, type RaStatus, type RaTicket, requireRaApi } from "./client";

export { ANSWER_MAX, RA_STATUSES };
/** A sync asks RA again for the last minute before the previous one's newest change (clocks, same-millisecond writes). */
const OVERLAP_MS = 60_000;

// ---- access ---------------------------------------------------------------------------------------

function assertView(ctx: SignedInCtx) {
  if (!can(ctx.actor, "/ra")) throw new AppError("FORBIDDEN");
}
/** Answer complaints and sync: the `ra` writers. */
function assertAct(ctx: SignedInCtx) {
  assertView(ctx);
  assertCanWrite(ctx.actor, "ra");
}
/** The connection (credentials): the account's managers. */
function assertManage(ctx: SignedInCtx) {
  assertView(ctx);
  assertCanWrite(ctx.actor, "account");
}
export const mayAnswer = (ctx: SignedInCtx) => canWrite(ctx.actor, "ra");
export const mayManage = (ctx: SignedInCtx) => canWrite(ctx.actor, "account");

/** RA's failures in our words: translated field errors, or 502 when RA could not be reached. */
function raFailure(e: unknown, field = "connection"): never {
  if (!(e instanceof RaError)) throw e;
  console.warn(`reclame aqui: ${e.kind}: ${e.message}`);
  if (e.kind === "unavailable") throw new AppError("PROVIDER_UNAVAILABLE");
  if (e.kind === "not_found") throw new AppError("VALIDATION", { fields: { [field]: ["ra.errors.notFound"] } });
  if (e.kind === "rejected") throw new AppError("VALIDATION", { fields: { [field]: ["ra.errors.rejected"] } });
  throw new AppError("VALIDATION", { fields: { [field]: ["ra.errors.credentials"] } });
}

// ---- the connection --------------------------------------------------------------------------------

type ConnRow = {
  company_id: string;
  client_id: string;
  client_secret_sealed: string;
  status: string;
  last_error: string | null;
  last_sync_at: Date | null;
  synced_through: Date | null;
  created_at: Date;
};
export type ConnectionView = {
  company_id: string;
  client_id: string;
  status: "connected" | "failing";
  last_error: string | null;
  last_sync_at: string | null;
  connected_at: string;
};

const iso = (d: Date | null) => (d ? new Date(d).toISOString() : null);
const connView = (c: ConnRow): ConnectionView => ({
  company_id: c.company_id,
  client_id: c.client_id,
  status: c.status as ConnectionView["status"],
  last_error: c.last_error,
  last_sync_at: iso(c.last_sync_at),
  connected_at: new Date(c.created_at).toISOString(),
});

const loadConn = (accountId: string, transaction?: Transaction) => row<ConnRow>(`SELECT * FROM ra_connections WHERE account_id = $1`, [accountId], { transaction });
const credsOf = (c: ConnRow): RaCredentials => ({ companyId: c.company_id, clientId: c.client_id, clientSecret: unseal(c.client_secret_sealed) });

export async function getConnection(ctx: SignedInCtx): Promise<ConnectionView | null> {
  assertView(ctx);
  const c = await loadConn(ctx.actor.accountId);
  return c ? connView(c) : null;
}

export const connectSchema = z.object({
  company_id: z
    .string()
    .trim()
    .regex(/^\d{1,12}$/, "ra.errors.companyId"),
  client_id: z.string().trim().min(1, "validation.required").max(200, "validation.maxLength::200"),
  client_secret: z.string().trim().min(1, "validation.required").max(500, "validation.maxLength::500"),
});

/** Connects (or reconnects) the account: RA must accept the credentials for the company first; then saved, the secret sealed. */
export async function connect(ctx: SignedInCtx, input: unknown): Promise<ConnectionView> {
  assertManage(ctx);
  const v = validate(connectSchema, input);
  const creds = { companyId: v.company_id, clientId: v.client_id, clientSecret: v.client_secret };
  try {
    await requireRaApi().verify(creds);
  } catch (e) {
    raFailure(e, e instanceof RaError && e.kind === "not_found" ? "company_id" : "client_secret");
  }
  const saved = await sequelize().transaction(async (transaction) => {
    const r = await row<ConnRow>(
      `INSERT INTO ra_connections (account_id, company_id, client_id, client_secret_sealed) VALUES ($1, $2, $3, $4)
       ON CONFLICT (account_id) DO UPDATE SET company_id = EXCLUDED.company_id, client_id = EXCLUDED.client_id, client_secret_sealed = EXCLUDED.client_secret_sealed,
         status = 'connected', last_error = NULL, updated_at = now(),
         synced_through = CASE WHEN ra_connections.company_id = EXCLUDED.company_id THEN ra_connections.synced_through END
       RETURNING *`,
      [ctx.actor.accountId, creds.companyId, creds.clientId, seal(creds.clientSecret)],
      { transaction },
    );
    await recordAudit({ ...ctx, transaction }, "ra.connected", { meta: { company_id: creds.companyId, client_id: creds.clientId } });
    return r!;
  });
  // The first import right away (what a fresh connection is for); a failure is kept as the connection's
  // status (syncAccount records it) and the worker tries again on its schedule.
  try {
    await syncAccount(ctx, ctx.actor.accountId);
  } catch (e) {
    if (!(e instanceof AppError)) throw e;
  }
  return connView((await loadConn(ctx.actor.accountId)) ?? saved);
}

export async function disconnect(ctx: SignedInCtx): Promise<void> {
  assertManage(ctx);
  await sequelize().transaction(async (transaction) => {
    const n = await exec(`DELETE FROM ra_connections WHERE account_id = $1`, [ctx.actor.accountId], { transaction });
    if (!n) throw new AppError("NOT_FOUND");
    await recordAudit({ ...ctx, transaction }, "ra.disconnected");
  });
}

// ---- sync ------------------------------------------------------------------------------------------

export type SyncResult = { imported: number; updated: number; last_sync_at: string };

/** Writes the tickets RA answered (one transaction); counts new and changed complaints. */
async function store(accountId: string, tickets: RaTicket[], transaction: Transaction): Promise<{ imported: number; updated: number }> {
  let imported = 0;
  let updated = 0;
  for (const t of tickets) {
    const r = await row<{ id: string; inserted: boolean }>(
      `INSERT INTO ra_complaints (account_id, ra_id, title, description, consumer_name, consumer_email, consumer_phone, status, ra_created_at, ra_updated_at, score, resolved, would_return)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)
       ON CONFLICT (account_id, ra_id) DO UPDATE SET title = EXCLUDED.title, description = EXCLUDED.description, consumer_name = EXCLUDED.consumer_name,
         consumer_email = EXCLUDED.consumer_email, consumer_phone = EXCLUDED.consumer_phone, status = EXCLUDED.status, ra_updated_at = EXCLUDED.ra_updated_at,
         score = EXCLUDED.score, resolved = EXCLUDED.resolved, would_return = EXCLUDED.would_return, updated_at = now()
       WHERE ra_complaints.ra_updated_at IS DISTINCT FROM EXCLUDED.ra_updated_at OR ra_complaints.status IS DISTINCT FROM EXCLUDED.status
       RETURNING id, (xmax = 0) AS inserted`,
      [accountId, t.raId, t.title, t.description, t.consumerName, t.consumerEmail, t.consumerPhone, t.status, t.createdAt, t.updatedAt, t.score, t.resolved, t.wouldReturn],
      { transaction },
    );
    if (!r) continue; // unchanged since the last sync
    if (r.inserted) imported++;
    else updated++;
    for (const i of t.interactions) {
      await exec(
        `INSERT INTO ra_interactions (account_id, complaint_id, ra_id, author, visibility, body, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7)
         ON CONFLICT (complaint_id, ra_id) DO UPDATE SET body = EXCLUDED.body, visibility = EXCLUDED.visibility`,
        [accountId, r.id, i.raId, i.author, i.visibility, i.body, i.at],
        { transaction },
      );
    }
    await exec(
      `UPDATE ra_complaints SET first_answer_at = (SELECT min(created_at) FROM ra_interactions WHERE complaint_id = $1 AND author = 'company' AND visibility = 'public') WHERE id = $1`,
      [r.id],
      { transaction },
    );
  }
  return { imported, updated };
}

/** Imports the complaints RA changed since the last sync of the account (all on the first). Used by "Sync now" and the worker. */
export async function syncAccount(ctx: Ctx, accountId: string): Promise<SyncResult> {
  const conn = await loadConn(accountId);
  if (!conn) throw new AppError("VALIDATION", { fields: { connection: ["ra.errors.notConnected"] } });
  const since = conn.synced_through ? new Date(new Date(conn.synced_through).getTime() - OVERLAP_MS) : null;
  let tickets: RaTicket[];
  try {
    tickets = await requireRaApi().tickets(credsOf(conn), since);
  } catch (e) {
    if (e instanceof RaError) {
      const key =
        e.kind === "unavailable"
          ? "errors.PROVIDER_UNAVAILABLE"
          : e.kind === "credentials"
            ? "ra.errors.credentials"
            : `ra.errors.${e.kind === "not_found" ? "notFound" : "rejected"}`;
      await exec(`UPDATE ra_connections SET status = 'failing', last_error = $2, updated_at = now() WHERE account_id = $1`, [accountId, key]);
    }
    raFailure(e);
  }
  const newest = tickets.reduce<number>((m, t) => Math.max(m, t.updatedAt.getTime()), conn.synced_through ? new Date(conn.synced_through).getTime() : 0);
  return sequelize().transaction(async (transaction) => {
    // One sync of an account at a time (the button and the worker): the second waits, then finds nothing new.
    await exec(`SELECT pg_advisory_xact_lock(hashtext('ra-sync:' || $1))`, [accountId], { transaction });
    const counts = await store(accountId, tickets, transaction);
    const done = await row<{ last_sync_at: Date }>(
      `UPDATE ra_connections SET status = 'connected', last_error = NULL, last_sync_at = now(), updated_at = now(),
         synced_through = GREATEST(coalesce(synced_through, 'epoch'), $2) WHERE account_id = $1 RETURNING last_sync_at`,
      [accountId, newest ? new Date(newest) : null],
      { transaction },
    );
    if (!done) throw new AppError("VALIDATION", { fields: { connection: ["ra.errors.notConnected"] } });
    if (ctx.actor) await recordAudit({ ...ctx, transaction }, "ra.synced", { accountId, meta: counts });
    return { ...counts, last_sync_at: new Date(done.last_sync_at).toISOString() };
  });
}

/** "Sync now". */
export async function syncNow(ctx: SignedInCtx): Promise<SyncResult> {
  assertAct(ctx);
  return syncAccount(ctx, ctx.actor.accountId);
}

/** The worker's schedule: every connection not synced for `everyMs`, one after the other; a failing one is recorded and the next goes on. */
export async function syncDue(everyMs: number, limit = 100): Promise<number> {
  const due = await rows<{ account_id: string }>(
    `SELECT account_id FROM ra_connections WHERE last_sync_at IS NULL OR last_sync_at < now() - make_interval(secs => $1) ORDER BY last_sync_at NULLS FIRST LIMIT $2`,
    [everyMs / 1000, limit],
  );
  let done = 0;
  for (const d of due) {
    try {
      await syncAccount({}, d.account_id);
      done++;
    } catch (e) {
      console.warn(`reclame aqui: scheduled sync of ${d.account_id} failed: ${(e as Error).message}`);
    }
  }
  return done;
}

// ---- complaints ------------------------------------------------------------------------------------

type ComplaintRow = {
  id: string;
  ra_id: string;
  title: string;
  description: string;
  consumer_name: string | null;
  consumer_email: string | null;
  consumer_phone: string | null;
  status: RaStatus;
  ra_created_at: Date;
  ra_updated_at: Date;
  first_answer_at: Date | null;
  score: number | null;
  resolved: boolean | null;
  would_return: boolean | null;
};
export type ComplaintView = {
  id: string;
  ra_id: string;
  title: string;
  consumer_name: string | null;
  status: RaStatus;
  created_at: string;
  updated_at: string;
  first_answer_at: string | null;
  score: number | null;
  resolved: boolean | null;
  would_return: boolean | null;
};
export type InteractionView = { id: string; ra_id: string; author: "company" | "consumer"; visibility: "public" | "private"; body: string; created_at: string };
export type ComplaintDetail = ComplaintView & { description: string; consumer_email: string | null; consumer_phone: string | null; interactions: InteractionView[] };

const complaintView = (c: ComplaintRow): ComplaintView => ({
  id: c.id,
  ra_id: c.ra_id,
  title: c.title,
  consumer_name: c.consumer_name,
  status: c.status,
  created_at: new Date(c.ra_created_at).toISOString(),
  updated_at: new Date(c.ra_updated_at).toISOString(),
  first_answer_at: iso(c.first_answer_at),
  score: c.score,
  resolved: c.resolved,
  would_return: c.would_return,
});

export const listSchema = z.object({
  status: z.enum(RA_STATUSES, { error: "validation.option" }).optional(),
  q: z.string().trim().max(200, "validation.maxLength::200").optional(),
  ...pageInput,
});

/** The account's complaints, newest first, filtered by status and text (title, description, consumer), keyset pages. */
export async function listComplaints(ctx: SignedInCtx, input: unknown): Promise<{ data: ComplaintView[]; next_cursor: string | null }> {
  assertView(ctx);
  const v = validate(listSchema, input ?? {});
  const cursor = decodeCursor(v.cursor, ["string", "string"]);
  const bind: unknown[] = [ctx.actor.accountId];
  const where = ["account_id = $1"];
  if (v.status) where.push(`status = $${bind.push(v.status)}`);
  if (v.q) {
    const like = `%${v.q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    const p = bind.push(like);
    where.push(`(title ILIKE $${p} OR description ILIKE $${p} OR consumer_name ILIKE $${p} OR ra_id = $${bind.push(v.q)})`);
  }
  if (cursor) where.push(`(ra_created_at, id) < ($${bind.push(cursor[0])}::timestamptz, $${bind.push(cursor[1])}::uuid)`);
  const list = await rows<ComplaintRow>(`SELECT * FROM ra_complaints WHERE ${where.join(" AND ")} ORDER BY ra_created_at DESC, id DESC LIMIT ${v.limit + 1}`, bind);
  return keyset(list, v.limit, (c) => [new Date(c.ra_created_at).toISOString(), c.id], complaintView);
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

async function loadComplaint(accountId: string, id: string, transaction?: Transaction): Promise<ComplaintRow> {
  const c = UUID.test(id) ? await row<ComplaintRow>(`SELECT * FROM ra_complaints WHERE account_id = $1 AND id = $2`, [accountId, id], { transaction }) : null;
  if (!c) throw new AppError("NOT_FOUND");
  return c;
}

export async function getComplaint(ctx: SignedInCtx, id: string): Promise<ComplaintDetail> {
  assertView(ctx);
  const c = await loadComplaint(ctx.actor.accountId, id);
  const list = await rows<{ id: string; ra_id: string; author: "company" | "consumer"; visibility: "public" | "private"; body: string; created_at: Date }>(
    `SELECT id::text, ra_id, author, visibility, body, created_at FROM ra_interactions WHERE account_id = $1 AND complaint_id = $2 ORDER BY created_at, id`,
    [ctx.actor.accountId, c.id],
  );
  return {
    ...complaintView(c),
    description: c.description,
    consumer_email: c.consumer_email,
    consumer_phone: c.consumer_phone,
    interactions: list.map((i) => ({ ...i, created_at: new Date(i.created_at).toISOString() })),
  };
}

export const answerSchema = z.object({
  visibility: z.enum(["public", "private"], { error: "validation.option" }),
  message: z.string().trim().min(1, "validation.required").max(ANSWER_MAX, `validation.maxLength::${ANSWER_MAX}`),
});

/** Answers a complaint on RA (public: the answer everyone sees; private: a message to the consumer), then records it. */
export async function answerComplaint(ctx: SignedInCtx, id: string, input: unknown): Promise<InteractionView> {
  assertAct(ctx);
  const v = validate(answerSchema, input);
  const c = await loadComplaint(ctx.actor.accountId, id);
  const conn = await loadConn(ctx.actor.accountId);
  if (!conn) throw new AppError("VALIDATION", { fields: { message: ["ra.errors.notConnected"] } });
  if (v.visibility === "public" && c.status === "evaluated") throw new AppError("VALIDATION", { fields: { message: ["ra.errors.evaluated"] } });
  let raId: string;
  try {
    raId = await requireRaApi().answer(credsOf(conn), c.ra_id, v.visibility, v.message, c.consumer_email);
  } catch (e) {
    raFailure(e, "message");
  }
  return sequelize().transaction(async (transaction) => {
    const i = await row<{ id: string; created_at: Date }>(
      `INSERT INTO ra_interactions (account_id, complaint_id, ra_id, author, visibility, body, author_user_id, created_at) VALUES ($1, $2, $3, 'company', $4, $5, $6, now())
       ON CONFLICT (complaint_id, ra_id) DO UPDATE SET author_user_id = EXCLUDED.author_user_id RETURNING id::text, created_at`,
      [ctx.actor.accountId, c.id, raId, v.visibility, v.message, ctx.actor.userId],
      { transaction },
    );
    if (v.visibility === "public")
      await exec(
        `UPDATE ra_complaints SET status = 'answered', first_answer_at = coalesce(first_answer_at, now()), updated_at = now() WHERE id = $1 AND status <> 'evaluated'`,
        [c.id],
        {
          transaction,
        },
      );
    await recordAudit({ ...ctx, transaction }, "ra.answered", { meta: { complaint_id: c.id, ra_id: c.ra_id, visibility: v.visibility } });
    return { id: i!.id, ra_id: raId, author: "company" as const, visibility: v.visibility, body: v.message, created_at: new Date(i!.created_at).toISOString() };
  });
}

// ---- overview and report ----------------------------------------------------------------------------

export async function overview(ctx: SignedInCtx): Promise<{ connection: ConnectionView | null; counts: Record<RaStatus, number>; total: number; latest: ComplaintView[] }> {
  assertView(ctx);
  const [conn, counts, latest] = await Promise.all([
    loadConn(ctx.actor.accountId),
    rows<{ status: RaStatus; n: number }>(`SELECT status, count(*)::int AS n FROM ra_complaints WHERE account_id = $1 GROUP BY status`, [ctx.actor.accountId]),
    rows<ComplaintRow>(`SELECT * FROM ra_complaints WHERE account_id = $1 ORDER BY ra_created_at DESC, id DESC LIMIT 10`, [ctx.actor.accountId]),
  ]);
  const byStatus = Object.fromEntries(RA_STATUSES.map((s) => [s, counts.find((c) => c.status === s)?.n ?? 0])) as Record<RaStatus, number>;
  return { connection: conn ? connView(conn) : null, counts: byStatus, total: counts.reduce((a, c) => a + c.n, 0), latest: latest.map(complaintView) };
}

export type Figures = {
  total: number;
  answered: number;
  /** answered / total, 0..100 with one decimal; null without complaints. */
  answered_pct: number | null;
  /** Mean time from the complaint to the company's first public answer, in seconds. */
  avg_answer_seconds: number | null;
  evaluated: number;
  /** The consumers' mean score, 0..10, one decimal. */
  avg_score: number | null;
  /** "Voltaria a fazer negócio": yes / evaluated, in %. */
  would_return_pct: number | null;
  /** Índice de solução: resolved / evaluated, in %. */
  solution_pct: number | null;
};
export type Report = { overall: Figures; months: Array<Figures & { month: string }> };

const FIGURES = `count(*)::int AS total,
  count(first_answer_at)::int AS answered,
  round(100.0 * count(first_answer_at) / nullif(count(*), 0), 1)::float AS answered_pct,
  round(avg(extract(epoch FROM first_answer_at - ra_created_at)))::float AS avg_answer_seconds,
  count(*) FILTER (WHERE status = 'evaluated')::int AS evaluated,
  round(avg(score) FILTER (WHERE status = 'evaluated'), 1)::float AS avg_score,
  round(100.0 * count(*) FILTER (WHERE status = 'evaluated' AND would_return) / nullif(count(*) FILTER (WHERE status = 'evaluated'), 0), 1)::float AS would_return_pct,
  round(100.0 * count(*) FILTER (WHERE status = 'evaluated' AND resolved) / nullif(count(*) FILTER (WHERE status = 'evaluated'), 0), 1)::float AS solution_pct`;

/** The reputation figures of the imported complaints, overall and per month of the complaint (São Paulo), newest month first. */
export async function report(ctx: SignedInCtx): Promise<Report> {
  assertView(ctx);
  const [overall] = await rows<Figures>(`SELECT ${FIGURES} FROM ra_complaints WHERE account_id = $1`, [ctx.actor.accountId]);
  const months = await rows<Figures & { month: string }>(
    `SELECT to_char(date_trunc('month', ra_created_at AT TIME ZONE 'America/Sao_Paulo'), 'YYYY-MM') AS month, ${FIGURES}
       FROM ra_complaints WHERE account_id = $1 GROUP BY 1 ORDER BY 1 DESC LIMIT 24`,
    [ctx.actor.accountId],
  );
  return { overall, months };
}
