import type { MigrationFn } from "../migrate";

/**
 * Live chat attendance (issue 5, ADR 014): rooms (one conversation with a protocol number), their
 * messages and transition log, agents' status and capacity, per-account settings (queue mode,
 * acceptance, widget), and what agents use while attending: tabulations, canned samples, macros,
 * opening hours and holidays.
 */
export const up: MigrationFn = async ({ context: q }) => {
  await q.sequelize.query(`
    CREATE TABLE live_settings (
      account_id uuid PRIMARY KEY REFERENCES accounts(id) ON DELETE CASCADE,
      -- live.queued_enabled: visitors wait in a department queue; off = only assigned at once or refused.
      queued_enabled boolean NOT NULL DEFAULT true,
      -- live.acceptance_option: 'automatic' gives the next visitor to the least-busy available agent;
      -- 'manual' leaves the queue for agents to pick from.
      acceptance_option text NOT NULL DEFAULT 'automatic' CHECK (acceptance_option IN ('automatic','manual')),
      default_capacity integer NOT NULL DEFAULT 3 CHECK (default_capacity BETWEEN 1 AND 100),
      tabulation_required boolean NOT NULL DEFAULT false,
      idle_minutes integer NOT NULL DEFAULT 10 CHECK (idle_minutes BETWEEN 1 AND 1440),
      widget_key text NOT NULL UNIQUE,
      widget jsonb NOT NULL DEFAULT '{}'::jsonb,
      updated_at timestamptz NOT NULL DEFAULT now()
    );

    CREATE TABLE live_agents (
      account_id uuid NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
      user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
      status text NOT NULL DEFAULT 'AVAILABLE' CHECK (status IN ('AVAILABLE','UNAVAILABLE','SHORT_BREAK','BREAK','LONG_BREAK','OFFLINE')),
      status_at timestamptz NOT NULL DEFAULT now(),
      -- Rooms at once; NULL = the account's default_capacity.
      capacity integer CHECK (capacity BETWEEN 1 AND 100),
      mute text NOT NULL DEFAULT 'disabled' CHECK (mute IN ('disabled','8h','1w','1m','always')),
      mute_until timestamptz,
      volume real NOT NULL DEFAULT 1 CHECK (volume BETWEEN 0 AND 1),
      PRIMARY KEY (account_id, user_id)
    );

    -- Departments an agent serves (besides the membership's own department).
    CREATE TABLE live_agent_departments (
      account_id uuid NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
      user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
      department_id uuid NOT NULL REFERENCES departments(id) ON DELETE CASCADE,
      PRIMARY KEY (account_id, user_id, department_id)
    );

    -- Protocol numbers: YYYYMMDD (São Paulo day) + a per-account sequence of that day.
    CREATE TABLE live_protocols (
      account_id uuid NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
      day date NOT NULL,
      seq integer NOT NULL,
      PRIMARY KEY (account_id, day)
    );

    CREATE TABLE live_tabulations (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      account_id uuid NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
      name text NOT NULL CHECK (length(name) BETWEEN 1 AND 120),
      active boolean NOT NULL DEFAULT true,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE UNIQUE INDEX live_tabulations_name_idx ON live_tabulations(account_id, lower(name));

    CREATE TABLE live_rooms (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      account_id uuid NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
      contact_id uuid REFERENCES contacts(id) ON DELETE SET NULL,
      channel text NOT NULL CHECK (channel IN ('webchat','telegram','messenger','instagram','google_business','whatsapp')),
      -- The channel's id of the conversation (Telegram chat id, Messenger PSID, webchat visitor id).
      external_id text NOT NULL,
      username text NOT NULL DEFAULT '',
      email text,
      phone text,
      protocol text NOT NULL,
      status text NOT NULL CHECK (status IN ('QUEUE','OPEN','CLOSED')),
      department_id uuid REFERENCES departments(id) ON DELETE SET NULL,
      agent_id uuid REFERENCES users(id) ON DELETE SET NULL,
      tabulation_id uuid REFERENCES live_tabulations(id) ON DELETE SET NULL,
      tags text[] NOT NULL DEFAULT '{}',
      -- A transfer waiting for the other side: the room is locked until it is accepted or refused.
      locked boolean NOT NULL DEFAULT false,
      transfer_type text CHECK (transfer_type IN ('agent','department')),
      transfer_to_user_id uuid REFERENCES users(id) ON DELETE SET NULL,
      transfer_to_department_id uuid REFERENCES departments(id) ON DELETE SET NULL,
      transfer_by uuid REFERENCES users(id) ON DELETE SET NULL,
      transfer_at timestamptz,
      -- The visitor left while waiting (offline contact) / stopped answering (idle contact).
      offline boolean NOT NULL DEFAULT false,
      idle boolean NOT NULL DEFAULT false,
      solved boolean NOT NULL DEFAULT false,
      close_reason text,
      queued_at timestamptz,
      assigned_at timestamptz,
      closed_at timestamptz,
      last_message text,
      last_message_type text,
      last_message_at timestamptz,
      unread_count integer NOT NULL DEFAULT 0,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      UNIQUE (account_id, protocol)
    );
    -- One conversation at a time per visitor and channel: a new message continues the open room.
    CREATE UNIQUE INDEX live_rooms_active_idx ON live_rooms(account_id, channel, external_id) WHERE status <> 'CLOSED';
    CREATE INDEX live_rooms_queue_idx ON live_rooms(account_id, department_id, queued_at) WHERE status = 'QUEUE';
    CREATE INDEX live_rooms_agent_idx ON live_rooms(account_id, agent_id) WHERE status = 'OPEN';
    CREATE INDEX live_rooms_history_idx ON live_rooms(account_id, created_at DESC, id DESC);

    CREATE TABLE live_messages (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      account_id uuid NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
      room_id uuid NOT NULL REFERENCES live_rooms(id) ON DELETE CASCADE,
      author text NOT NULL CHECK (author IN ('visitor','agent','bot','system')),
      user_id uuid REFERENCES users(id) ON DELETE SET NULL,
      body text NOT NULL DEFAULT '',
      attachments jsonb NOT NULL DEFAULT '[]'::jsonb,
      status text NOT NULL DEFAULT 'SENT' CHECK (status IN ('SENT','DELIVERED','READ','FAIL','DELETED')),
      edited boolean NOT NULL DEFAULT false,
      -- The sender's own id for this message (retries answer the stored one) and the channel's id.
      client_id text,
      external_id text,
      error text,
      created_at timestamptz NOT NULL DEFAULT now(),
      delivered_at timestamptz,
      read_at timestamptz,
      updated_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE INDEX live_messages_room_idx ON live_messages(room_id, created_at, id);
    CREATE UNIQUE INDEX live_messages_client_idx ON live_messages(room_id, client_id) WHERE client_id IS NOT NULL;

    -- Every transition of a room, in order (who, what, from where to where).
    CREATE TABLE live_room_events (
      id bigserial PRIMARY KEY,
      account_id uuid NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
      room_id uuid NOT NULL REFERENCES live_rooms(id) ON DELETE CASCADE,
      type text NOT NULL,
      actor_id uuid REFERENCES users(id) ON DELETE SET NULL,
      payload jsonb NOT NULL DEFAULT '{}'::jsonb,
      created_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE INDEX live_room_events_room_idx ON live_room_events(room_id, id);

    CREATE TABLE live_samples (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      account_id uuid NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
      -- Audience: for_all, or one agent (user_id), or one department.
      for_all boolean NOT NULL DEFAULT false,
      user_id uuid REFERENCES users(id) ON DELETE CASCADE,
      department_id uuid REFERENCES departments(id) ON DELETE CASCADE,
      key text NOT NULL CHECK (key ~ '^[a-z0-9_-]{1,40}$'),
      message text NOT NULL CHECK (length(message) BETWEEN 1 AND 4000),
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      CHECK (for_all OR user_id IS NOT NULL OR department_id IS NOT NULL)
    );
    CREATE INDEX live_samples_account_idx ON live_samples(account_id, key);

    CREATE TABLE live_macros (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      account_id uuid NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
      name text NOT NULL CHECK (length(name) BETWEEN 1 AND 120),
      -- What the macro does, in order: send a message, add tags, set a tabulation, close.
      message text,
      tags text[] NOT NULL DEFAULT '{}',
      tabulation_id uuid REFERENCES live_tabulations(id) ON DELETE SET NULL,
      close boolean NOT NULL DEFAULT false,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE UNIQUE INDEX live_macros_name_idx ON live_macros(account_id, lower(name));

    CREATE TABLE live_holidays (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      account_id uuid NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
      name text NOT NULL CHECK (length(name) BETWEEN 1 AND 120),
      day date NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      UNIQUE (account_id, day)
    );

    -- Weekly opening hours (São Paulo local time); no row for a weekday = closed that day.
    CREATE TABLE live_opening_hours (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      account_id uuid NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
      department_id uuid REFERENCES departments(id) ON DELETE CASCADE,
      weekday smallint NOT NULL CHECK (weekday BETWEEN 0 AND 6),
      opens time NOT NULL,
      closes time NOT NULL CHECK (closes > opens),
      created_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE INDEX live_opening_hours_account_idx ON live_opening_hours(account_id, weekday);
  `);
};

export const down: MigrationFn = async ({ context: q }) => {
  await q.sequelize.query(`
    DROP TABLE IF EXISTS live_opening_hours, live_holidays, live_macros, live_samples, live_room_events,
      live_messages, live_rooms, live_tabulations, live_protocols, live_agent_departments, live_agents, live_settings CASCADE;
  `);
};
