import type { MigrationFn } from "../migrate";

/**
 * Flows (issue 20, ADR 053): a chatbot per account, channel and trigger. `flows.draft` is the
 * definition being edited (saved as it is, issues and all); publishing checks it (checkFlow) and
 * writes it, normalized, as the next row of `flow_versions`, which never changes afterwards (a
 * trigger refuses any UPDATE but the FK's SET NULL of `published_by`): a stream keeps running on
 * the version it started on. `published_version` is the version the flow runs.
 * One active flow per account, channel, trigger (and keyword): `flows_one_active_idx`, whose
 * violation the API answers 409 FLOW_CHANNEL_TAKEN.
 */
export const up: MigrationFn = async ({ context: q }) => {
  await q.sequelize.query(`
    CREATE TABLE flows (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      account_id uuid NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
      name text NOT NULL CHECK (length(name) BETWEEN 1 AND 100),
      channel text NOT NULL CHECK (channel IN ('webchat', 'telegram', 'messenger', 'instagram', 'google_business', 'whatsapp', 'rcs')),
      trigger text NOT NULL CHECK (trigger IN ('inbound', 'keyword', 'campaign_reply', 'api')),
      trigger_value text CHECK (trigger_value IS NULL OR length(trigger_value) BETWEEN 1 AND 50),
      status text NOT NULL DEFAULT 'draft' CHECK (status IN ('draft', 'active', 'inactive')),
      draft jsonb NOT NULL,
      published_version integer,
      created_by uuid REFERENCES users(id) ON DELETE SET NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      -- The keyword is required by a keyword trigger, and only there.
      CHECK ((trigger = 'keyword') = (trigger_value IS NOT NULL)),
      -- Only a published flow runs.
      CHECK (status <> 'active' OR published_version IS NOT NULL),
      -- For flow_versions' (account_id, flow_id) key: a version belongs to its flow's account.
      UNIQUE (account_id, id)
    );
    CREATE INDEX flows_account_idx ON flows (account_id, created_at DESC, id DESC);
    -- One active flow per channel and trigger ('This channel may already have a flow').
    CREATE UNIQUE INDEX flows_one_active_idx ON flows (account_id, channel, trigger, coalesce(trigger_value, '')) WHERE status = 'active';

    CREATE TABLE flow_versions (
      flow_id uuid NOT NULL,
      account_id uuid NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
      version integer NOT NULL CHECK (version >= 1),
      definition jsonb NOT NULL,
      published_by uuid REFERENCES users(id) ON DELETE SET NULL,
      published_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (flow_id, version),
      FOREIGN KEY (account_id, flow_id) REFERENCES flows (account_id, id) ON DELETE CASCADE
    );
    ALTER TABLE flows ADD FOREIGN KEY (id, published_version) REFERENCES flow_versions (flow_id, version);

    -- A published version never changes; only its publisher may be forgotten (users' ON DELETE SET NULL).
    CREATE FUNCTION flow_versions_immutable() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF NEW.published_by IS NULL
         AND (NEW.flow_id, NEW.account_id, NEW.version, NEW.definition, NEW.published_at)
             IS NOT DISTINCT FROM (OLD.flow_id, OLD.account_id, OLD.version, OLD.definition, OLD.published_at) THEN
        RETURN NEW;
      END IF;
      RAISE EXCEPTION 'flow version % of flow % is immutable', OLD.version, OLD.flow_id USING ERRCODE = 'integrity_constraint_violation';
    END
    $$;
    CREATE TRIGGER flow_versions_immutable BEFORE UPDATE ON flow_versions FOR EACH ROW EXECUTE FUNCTION flow_versions_immutable();
  `);
};

export const down: MigrationFn = async ({ context: q }) => {
  await q.sequelize.query(`
    DROP TABLE IF EXISTS flow_versions CASCADE;
    DROP TABLE IF EXISTS flows CASCADE;
    DROP FUNCTION IF EXISTS flow_versions_immutable();
  `);
};
