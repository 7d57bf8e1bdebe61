/**
 * The write of one-number sends, group-committed per account (api/lib/group-commit.ts, ADR 027).
 * api/sms/accept.ts has already validated, rendered, priced and checked each send (sender, route,
 * opt-outs, deny list, moderation, an early 402); what is left is the part that must be atomic and
 * that serialised every send of an account on its balance row: the debit, the messages with their
 * outbox rows and first events, and the audit entries. All the sends of one account that arrived
 * while its previous write was in flight go in ONE statement (one round trip, one COMMIT): the
 * balance row is debited once with the batch's total, and only if the balance still covers it —
 * otherwise nothing of the batch is written and every send goes the one-at-a-time way again, which
 * gives each its own exact answer (most still fit; the rest get 402).
 */
import type { Transaction } from "sequelize";
import { sequelize } from "../../models";
import type { auditFields } from "../audit/record";
import { debitSql } from "../accounts/balance";
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
  /** More to write in the same transaction once the message exists (our SMPP server's receipt request). */
  also?: (transaction: Transaction) => Promise<void>;
};

const WRITE_SQL = `
  WITH i AS (
    SELECT * FROM unnest($2::uuid[], $3::text[], $4::text[], $5::text[], $6::int[], $7::text[], $8::text[], $9::text[], $10::text[],
                         $11::bigint[], $12::text[], $13::text[], $14::text[], $15::timestamptz[], $16::uuid[], $17::text[], $18::text[], $19::jsonb[],
                         $20::text[], $21::text[], $22::text[])
      AS i(id, sender, recipient, body, segments, coding, status, error_code, error_message,
           price, currency, route, provider, scheduled_at, user_id, ip, user_agent, meta, action, channel, topic)
  ), t AS (
    SELECT sum(price)::bigint AS total FROM i
  ), d AS (
    ${debitSql("$1", "(SELECT total FROM t)")}
  ), ok AS (
    SELECT i.* FROM i, t WHERE t.total = 0 OR EXISTS (SELECT 1 FROM d)
  ), m AS (
    INSERT INTO messages (id, account_id, channel, direction, sender, recipient, body, segments, coding, status, provider, route, price, currency,
                          scheduled_at, queued_at, error_code, error_message)
    SELECT id, $1, channel, 'outbound', sender, recipient, body, segments, coding, status, provider, route, price, currency,
           scheduled_at, CASE WHEN status = 'queued' THEN now() END, error_code, error_message
      FROM ok
    RETURNING id, status, segments, price, currency, error_code
  ), o AS (
    INSERT INTO outbox (topic, payload) SELECT ok.topic, jsonb_build_object('message_id', ok.id::text) FROM ok WHERE ok.status = 'queued'
  ), e AS (
    INSERT INTO message_events (message_id, account_id, status, source, payload)
    SELECT m.id, $1, m.status, 'system',
           CASE WHEN m.status IN ('queued', 'scheduled') THEN jsonb_build_object('segments', m.segments, 'price', m.price, 'currency', btrim(m.currency))
                ELSE jsonb_build_object('reason', m.error_code) END
      FROM m
  ), au AS (
    INSERT INTO audit_logs (account_id, user_id, action, ip, user_agent, meta) SELECT $1, user_id, action, ip::inet, user_agent, meta FROM ok
  )
  SELECT count(*)::int AS written FROM m`;

/** Writes one account's batch; answers, per send, whether it was written (all or none). */
async function write(accountId: string, items: OneSms[]): Promise<boolean[]> {
  const col = <T>(f: (x: OneSms) => T) => items.map(f);
  const bind = [
    accountId,
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
  ];
  const hooks = items.filter((x) => x.also);
  // A single statement commits alone (one round trip); hooks need the statement's transaction around them.
  const written = hooks.length
    ? await sequelize().transaction(async (transaction) => {
        const [r] = await rows<{ written: number }>(WRITE_SQL, bind, { transaction });
        if (r.written === items.length) for (const x of hooks) await x.also!(transaction);
        return r.written;
      })
    : (await rows<{ written: number }>(WRITE_SQL, bind))[0].written;
  return items.map(() => written === items.length);
}

const batches = new GroupCommit<OneSms, boolean>(write, 256);

/**
 * Writes one checked send together with the others of its account in flight. True: written and
 * committed. False: the balance no longer covered the batch, nothing was written. Throws when the
 * batch's statement failed (nothing of it was written either).
 */
export function writeOneSms(item: OneSms): Promise<boolean> {
  return batches.run(item.accountId, item);
}
