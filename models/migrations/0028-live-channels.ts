import type { MigrationFn } from "../migrate";

/**
 * Live chat channels and uploads (issue 5, ADR 017).
 *
 * - live_channel_connections: an account's Telegram bot, Messenger page or Instagram account. One
 *   connection per account and channel; a bot, page or Instagram account belongs to one account
 *   at a time. Public identifiers in the clear (external_id: the bot id, page id or IG account
 *   id); every secret (bot token, webhook secret, page access token, app secret, verify token) in
 *   one sealed JSON (api/lib/crypto seal: AES-256-GCM) because we must use them, not only compare.
 * - live_files: the files of live messages (uploads by agents and visitors, media fetched from
 *   the channels). The bytes sit on disk under UPLOAD_DIR/live, named by their SHA-256 (the same
 *   bytes are kept once); this row gives a file its account, room, type and name, and is what
 *   GET /api/live/files/{id} checks access against.
 */
export const up: MigrationFn = async ({ context: q }) => {
  await q.sequelize.query(`
    CREATE TABLE live_channel_connections (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      account_id uuid NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
      channel text NOT NULL CHECK (channel IN ('telegram','messenger','instagram','google_business')),
      external_id text NOT NULL CHECK (length(external_id) BETWEEN 1 AND 120),
      name text NOT NULL DEFAULT '' CHECK (length(name) <= 200),
      secrets_sealed text NOT NULL,
      created_by uuid REFERENCES users(id) ON DELETE SET NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE UNIQUE INDEX live_channel_connections_account_idx ON live_channel_connections(account_id, channel);
    CREATE UNIQUE INDEX live_channel_connections_external_idx ON live_channel_connections(channel, external_id);

    CREATE TABLE live_files (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      account_id uuid NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
      room_id uuid REFERENCES live_rooms(id) ON DELETE CASCADE,
      sha256 text NOT NULL CHECK (sha256 ~ '^[0-9a-f]{64}$'),
      type text NOT NULL CHECK (type IN ('image','audio','video','document','sticker')),
      media_type text NOT NULL,
      name text NOT NULL CHECK (length(name) BETWEEN 1 AND 200),
      size integer NOT NULL CHECK (size > 0),
      created_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE INDEX live_files_account_idx ON live_files(account_id, created_at);
    CREATE INDEX live_files_sha_idx ON live_files(sha256);
  `);
};

export const down: MigrationFn = async ({ context: q }) => {
  await q.sequelize.query(`DROP TABLE IF EXISTS live_files, live_channel_connections CASCADE;`);
};
