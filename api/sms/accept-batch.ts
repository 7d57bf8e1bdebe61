/**
 * The write of one-number sends, group-committed (api/lib/group-commit.ts, ADR 027).
 * api/sms/accept.ts has already validated, rendered, priced and checked each send (sender, route,
 * opt-outs, deny list, moderation); what is left is the part that must be atomic and that
 * serialised every send of an account on its balance row: the debit, the messages with their
 * outbox rows and first events, and the audit entries. All the sends that arrived while the
 * process's previous write was in flight, of any accounts, go in ONE statement (one round trip,
 * one COMMIT): each account's balance row is locked in account order and debited once with its
 * total in the batch, only if its balance still covers it. An account it does not cover gets
 * none of its sends written: a send it could not pay for even alone is refused at once (402); the
 * others go the one-at-a-time way again, which gives each its own exact answer.
 */
import type { Transaction } from "sequelize";
import { sequelize } from "../../models";
import type { auditFields } from "../audit/record";
import { debitEachSql, postingJson } from "../accounts/balance";
import { GroupCommit } from "../lib/group-commit";
import { rows } from "../lib/sql";

/** One checked send of one number, ready to be written. */
export type OneSms = {
  id: string;
  accountId: string;
  channel: string;
  topic: string;
  sender: string;
  recipient: string;
  body: string;
  segments: number;
  coding: string;
  status: "queued" | "scheduled" | "optout" | "rejected";
  errorCode: string | null;
  errorMessage: string | null;
  price: number;
  currency: string;
  route: string;
  provider: string;
  scheduledAt: Date | null;
  audit: ReturnType<typeof auditFields>;
  /** The request's Idempotency-Key, stored with the request's hash and the answer in the same statement. */
  idempotency: { key: string; hash: string; response: unknown } | null;
  /** More to write in the same transaction once the message exists (our SMPP server's receipt request). */
  also?: (transaction: Transaction) => Promise<void>;
  /** A channel richer than SMS: the message's type (default text) and what its provider takes (WhatsApp: Graph's message object). */
  type?: string;
  content?: unknown;
};

const WRITE_SQL = `
  WITH i AS (
    SELECT * FROM unnest($1::uuid[], $2::uuid[], $3::text[], $4::text[], $5::text[], $6::int[], $7::text[], $8::text[], $9::text[], $10::text[],
                         $11::bigint[], $12::text[], $13::text[], $14::text[], $15::timestamptz[], $16::uuid[], $17::text[], $18::text[], $19::jsonb[],
                         $20::text[], $21::text[], $22::text[], $23::text[], $24::text[], $25::jsonb[], $26::text[], $27::jsonb[])
      AS i(account_id, id, sender, recipient, body, segments, coding, status, error_code, error_message,
           price, currency, route, provider, scheduled_at, user_id, ip, user_agent, meta, action, channel, topic, key, request_hash, response, type, content)
  ), t AS (
    SELECT account_id, sum(price)::bigint AS total FROM i GROUP BY account_id
  ), ${debitEachSql("t", "l", "d", `'${postingJson({ kind: "message", reason: "one-at-a-time sends" })}'::text`)}, ok AS (
    SELECT i.* FROM i JOIN t USING (account_id) WHERE t.total = 0 OR i.account_id IN (SELECT account_id FROM d)
  ), m AS (
    INSERT INTO messages (id, account_id, channel, direction, sender, recipient, body, segments, coding, status, provider, route, price, currency,
                          scheduled_at, queued_at, error_code, error_message, type, content)
    SELECT id, account_id, channel, 'outbound', sender, recipient, body, segments, coding, status, provider, route, price, currency,
           scheduled_at, CASE WHEN status = 'queued' THEN now() END, error_code, error_message, COALESCE(type, 'text'), content
      FROM ok
    RETURNING id, created_at, account_id, status, segments, price, currency, error_code
  ), o AS (
    INSERT INTO outbox (topic, payload) SELECT ok.topic, jsonb_build_object('message_id', ok.id::text) FROM ok WHERE ok.status = 'queued'
  ), e AS (
    INSERT INTO message_events (message_id, message_created_at, account_id, status, source, payload)
    SELECT m.id, m.created_at, m.account_id, m.status, 'system',
           CASE WHEN m.status IN ('queued', 'scheduled') THEN jsonb_build_object('segments', m.segments, 'price', m.price, 'currency', btrim(m.currency))
                ELSE jsonb_build_object('reason', m.error_code) END
      FROM m
  ), ik AS (
    -- A key another request stored meanwhile fails the statement (its primary key): the batch goes one at a time, and that send finds the key.
    INSERT INTO idempotency_keys (account_id, key, request_hash, response) SELECT account_id, key, request_hash, response FROM ok WHERE key IS NOT NULL
  ), au AS (
    INSERT INTO audit_logs (account_id, user_id, action, ip, user_agent, meta) SELECT account_id, user_id, action, ip::inet, user_agent, meta FROM ok
  )
  SELECT m.id, NULL::uuid AS account_id, NULL::bigint AS available FROM m
  UNION ALL
  SELECT NULL, l.account_id, l.available FROM l WHERE l.account_id NOT IN (SELECT account_id FROM d)`;

/** What became of one send of a batch: written, or not, with what its account could spend then. */
export type Written = { written: true } | { written: false; available: number };

/**
 * Writes a batch of sends of any accounts in one statement; answers, per send, whether it was
 * written. An account whose balance no longer covers its sends in the batch gets none of them
 * written (and says what it could spend); the other accounts' are.
 */
async function write(_key: string, items: OneSms[]): Promise<Written[]> {
  const col = <T>(f: (x: OneSms) => T) => items.map(f);
  const bind = [
    col((x) => x.accountId),
    col((x) => x.id),
    col((x) => x.sender),
    col((x) => x.recipient),
    col((x) => x.body),
    col((x) => x.segments),
    col((x) => x.coding),
    col((x) => x.status),
    col((x) => x.errorCode),
    col((x) => x.errorMessage),
    col((x) => x.price),
    col((x) => x.currency),
    col((x) => x.route),
    col((x) => x.provider),
    col((x) => x.scheduledAt),
    col((x) => x.audit.userId),
    col((x) => x.audit.ip),
    col((x) => x.audit.userAgent),
    col((x) => JSON.stringify(x.audit.meta)),
    col((x) => x.audit.action),
    col((x) => x.channel),
    col((x) => x.topic),
    col((x) => x.idempotency?.key ?? null),
    col((x) => x.idempotency?.hash ?? null),
    col((x) => (x.idempotency ? JSON.stringify(x.idempotency.response) : null)),
    col((x) => x.type ?? null),
    col((x) => (x.content === undefined || x.content === null ? null : JSON.stringify(x.content))),
  ];
  const keys = items.filter((x) => x.idempotency).map((x) => `${x.accountId} ${x.idempotency!.key}`);
  if (new Set(keys).size !== keys.length) throw new Error("one Idempotency-Key twice in a batch: its sends go one at a time");
  type Row = { id: string | null; account_id: string | null; available: string | null };
  const hooks = items.filter((x) => x.also);
  // A single statement commits alone (one round trip); hooks need the statement's transaction around them.
  const found = hooks.length
    ? await sequelize().transaction(async (transaction) => {
        const r = await rows<Row>(WRITE_SQL, bind, { transaction });
        const written = new Set(r.map((x) => x.id));
        for (const x of hooks) if (written.has(x.id)) await x.also!(transaction);
        return r;
      })
    : await rows<Row>(WRITE_SQL, bind);
  const written = new Set(found.filter((r) => r.id).map((r) => r.id));
  const refused = new Map(found.filter((r) => r.account_id).map((r) => [r.account_id, Number(r.available)]));
  return items.map((x): Written => (written.has(x.id) ? { written: true } : { written: false, available: refused.get(x.accountId) ?? 0 }));
}

/** One queue per process for every account's sends: the more accounts send at once, the larger each write. */
const batches = new GroupCommit<OneSms, Written>(write, 256);

/**
 * Writes one checked send together with the others in flight: written and committed, or not
 * written because its account's balance no longer covered its sends in the batch (with what the
 * account could spend then). Throws when the batch's statement failed (nothing of it was written).
 */
export function writeOneSms(item: OneSms): Promise<Written> {
  return batches.run("sms", item);
}
