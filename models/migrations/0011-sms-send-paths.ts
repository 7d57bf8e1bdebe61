import type { MigrationFn } from "../migrate";

/**
 * Send paths of SMS (issue 4, docs/decisions/008-send-paths.md):
 * - `sms_send_rows`: an UNLOGGED staging table the recipients of an uploaded CSV file are COPYed
 *   into (number, and the other columns as template variables) before the accept transaction
 *   expands them set-based into messages; rows are removed by that transaction (or its failure),
 *   and the worker sweep drops batches left behind by a crash.
 * - `sms_segment_info(text)`: the GSM-7/UCS-2 coding and segment count of api/sms/segments.ts in
 *   SQL, so bodies rendered per recipient inside PostgreSQL (group and file sends with template
 *   variables) are counted and priced without a round trip through JavaScript. The integration
 *   tests compare it with the TypeScript counter.
 * - A partial index on the due scheduled messages for the release sweep.
 */
const GSM_BASIC = "@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞÆæßÉ !\"#¤%&'()*+,-./0123456789:;<=>?¡ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÑÜ§¿abcdefghijklmnopqrstuvwxyzäöñüà";
const GSM_EXTENSION = "\f^{}\\[~]|€";
const lit = (s: string) => `'${s.replace(/'/g, "''")}'`;

export const up: MigrationFn = async ({ context: q }) => {
  await q.sequelize.query(`
    CREATE UNLOGGED TABLE sms_send_rows (
      batch_id uuid NOT NULL,
      n bigint NOT NULL,
      recipient text NOT NULL,
      vars jsonb NOT NULL DEFAULT '{}'::jsonb,
      created_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE INDEX sms_send_rows_batch_idx ON sms_send_rows(batch_id, n);

    CREATE INDEX messages_scheduled_due_idx ON messages(scheduled_at) WHERE status = 'scheduled';

    CREATE FUNCTION sms_segment_info(body text, OUT coding text, OUT segments integer)
    LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE AS $fn$
    DECLARE
      ext_count integer;
      supp_count integer;
      units integer;
      part integer;
      used integer;
      size integer;
      ch text;
    BEGIN
      IF length(translate(body, ${lit(GSM_BASIC + GSM_EXTENSION)}, '')) = 0 THEN
        coding := 'GSM7';
        ext_count := length(body) - length(translate(body, ${lit(GSM_EXTENSION)}, ''));
        units := length(body) + ext_count;
        IF units <= 160 THEN segments := 1; RETURN; END IF;
        IF ext_count = 0 THEN segments := ceil(units / 153.0)::int; RETURN; END IF;
        part := 153;
      ELSE
        coding := 'UCS2';
        supp_count := length(body) - length(regexp_replace(body, '[\\U00010000-\\U0010FFFF]', '', 'g'));
        units := length(body) + supp_count;
        IF units <= 70 THEN segments := 1; RETURN; END IF;
        IF supp_count = 0 THEN segments := ceil(units / 67.0)::int; RETURN; END IF;
        part := 67;
      END IF;
      -- A unit (escaped GSM character, surrogate pair) is never split across two parts.
      segments := 1;
      used := 0;
      FOREACH ch IN ARRAY regexp_split_to_array(body, '') LOOP
        IF coding = 'GSM7' THEN
          size := CASE WHEN strpos(${lit(GSM_EXTENSION)}, ch) > 0 THEN 2 ELSE 1 END;
        ELSE
          size := CASE WHEN ascii(ch) > 65535 THEN 2 ELSE 1 END;
        END IF;
        IF used + size > part THEN
          segments := segments + 1;
          used := 0;
        END IF;
        used := used + size;
      END LOOP;
    END
    $fn$;
  `);
};

export const down: MigrationFn = async ({ context: q }) => {
  await q.sequelize.query(`
    DROP FUNCTION IF EXISTS sms_segment_info(text);
    DROP INDEX IF EXISTS messages_scheduled_due_idx;
    DROP TABLE IF EXISTS sms_send_rows;
  `);
};
