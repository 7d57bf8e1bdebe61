import type { MigrationFn } from "../migrate";

/**
 * Moderation holds (issue 4; docs/decisions/012-webhooks-and-moderation.md).
 *
 * - moderation_terms: the platform's anti-fraud list of words and URL domains under review
 *   (spec "words" and "urls"), kept by platform staff. Values are stored folded: words lowercase
 *   without accents, domains lowercase without a leading "www.".
 * - moderation_approvals: one review request per (account, kind, value) (spec "words/approvals",
 *   "urls/approvals"): pending → approved | rejected (with the reason). Created by the accept
 *   transaction when a message is held (or by the account asking ahead); decided by platform
 *   staff. An approved one lets that account use the term from then on.
 * - moderation_holds: which held message waits on which approval. A message matching several
 *   terms waits on all of them: it is released when none of its holds is still `held`, and
 *   rejected (and refunded, once) as soon as one is rejected.
 *
 * A held message is a `pending` message with no outbox row. As a second line of defence, a
 * trigger makes any claim of a held message (pending → anything while a hold is `held`) a no-op,
 * so no sweep that re-publishes pending messages can send it before the review.
 */
export const up: MigrationFn = async ({ context: q }) => {
  await q.sequelize.query(`
    CREATE TABLE moderation_terms (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      kind text NOT NULL CHECK (kind IN ('word','url')),
      value text NOT NULL CHECK (length(value) BETWEEN 1 AND 255),
      note text NOT NULL DEFAULT '' CHECK (length(note) <= 255),
      created_by uuid REFERENCES users(id) ON DELETE SET NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      UNIQUE (kind, value)
    );

    CREATE TABLE moderation_approvals (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      account_id uuid NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
      kind text NOT NULL CHECK (kind IN ('word','url')),
      value text NOT NULL CHECK (length(value) BETWEEN 1 AND 255),
      status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending','approved','rejected')),
      note text NOT NULL DEFAULT '' CHECK (length(note) <= 500),
      reason text NOT NULL DEFAULT '' CHECK (length(reason) <= 500),
      requested_by uuid REFERENCES users(id) ON DELETE SET NULL,
      decided_by uuid REFERENCES users(id) ON DELETE SET NULL,
      decided_at timestamptz,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now()
    );
    -- One open request per account and term; an approved one is the account's allowance.
    CREATE UNIQUE INDEX moderation_approvals_open_idx ON moderation_approvals(account_id, kind, value) WHERE status = 'pending';
    CREATE INDEX moderation_approvals_allowed_idx ON moderation_approvals(account_id, kind, value) WHERE status = 'approved';
    CREATE INDEX moderation_approvals_list_idx ON moderation_approvals(status, created_at DESC);
    CREATE INDEX moderation_approvals_account_idx ON moderation_approvals(account_id, created_at DESC);

    CREATE TABLE moderation_holds (
      message_id uuid NOT NULL REFERENCES messages(id) ON DELETE CASCADE,
      approval_id uuid NOT NULL REFERENCES moderation_approvals(id) ON DELETE CASCADE,
      account_id uuid NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
      state text NOT NULL DEFAULT 'held' CHECK (state IN ('held','released','rejected')),
      created_at timestamptz NOT NULL DEFAULT now(),
      resolved_at timestamptz,
      PRIMARY KEY (approval_id, message_id)
    );
    CREATE INDEX moderation_holds_message_idx ON moderation_holds(message_id) WHERE state = 'held';

    CREATE FUNCTION moderation_keep_held() RETURNS trigger LANGUAGE plpgsql AS $fn$
    BEGIN
      IF EXISTS (SELECT 1 FROM moderation_holds h WHERE h.message_id = OLD.id AND h.state = 'held') THEN
        RETURN NULL; -- still under review: the claim changes nothing
      END IF;
      RETURN NEW;
    END $fn$;
    CREATE TRIGGER messages_moderation_keep_held BEFORE UPDATE OF status ON messages
      FOR EACH ROW WHEN (OLD.status = 'pending' AND NEW.status IS DISTINCT FROM 'pending')
      EXECUTE FUNCTION moderation_keep_held();
  `);
};

export const down: MigrationFn = async ({ context: q }) => {
  await q.sequelize.query(`
    DROP TRIGGER IF EXISTS messages_moderation_keep_held ON messages;
    DROP FUNCTION IF EXISTS moderation_keep_held();
    DROP TABLE IF EXISTS moderation_holds;
    DROP TABLE IF EXISTS moderation_approvals;
    DROP TABLE IF EXISTS moderation_terms;
  `);
};
