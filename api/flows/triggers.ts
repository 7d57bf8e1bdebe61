/**
 * What starts and feeds a flow stream (ADR 054), written inside the caller's transaction (the
 * visitor's message, the API's start): the stream row and its inputs in PostgreSQL. After COMMIT
 * the caller calls `wakeStreams`: one entry per stream on the job stream `flows:events` (the fast
 * path). The runtime's sweep republishes what Redis lost (./runtime.ts `sweepFlows`).
 */
import type { Transaction } from "sequelize";
import { publishJobs } from "../jobs/publish";
import { exec, row } from "../lib/sql";
import { FLOW_CAMPAIGN_REPLY_HOURS } from "./constants";

export const FLOW_EVENTS_STREAM = "flows:events";

/**
 * The account's active flow that a new room on `channel` opening with `text` starts. A keyword's
 * flow wins, then the campaign-reply flow when the visitor's phone got a campaign's message on
 * this channel in the last FLOW_CAMPAIGN_REPLY_HOURS (a WhatsApp campaign answered), then the
 * inbound one.
 */
export function flowForNewRoom(accountId: string, channel: string, text: string, phone: string | null, transaction: Transaction) {
  return row<{ id: string; version: number }>(
    `SELECT id, published_version AS version FROM flows
      WHERE account_id = $1 AND channel = $2 AND status = 'active' AND published_version IS NOT NULL
        AND (trigger = 'inbound' OR (trigger = 'keyword' AND trigger_value = $3)
          OR (trigger = 'campaign_reply' AND $4::text IS NOT NULL AND EXISTS (
                SELECT 1 FROM messages m
                 WHERE m.account_id = $1 AND m.recipient = $4 AND m.channel = $2 AND m.direction = 'outbound'
                   AND m.campaign_id IS NOT NULL AND m.created_at > now() - make_interval(hours => $5))))
      ORDER BY CASE trigger WHEN 'keyword' THEN 0 WHEN 'campaign_reply' THEN 1 ELSE 2 END LIMIT 1`,
    [accountId, channel, text.trim().toLowerCase(), phone, FLOW_CAMPAIGN_REPLY_HOURS],
    { transaction },
  );
}

/** A new stream of `flow` (on its version) in `room`, with its start input; answers its id. The room must be BOT already or be made so by the caller. */
export async function startStream(
  transaction: Transaction,
  room: { id: string; account_id: string; contact_id: string | null; channel: string },
  flow: { id: string; version: number },
  vars: Record<string, string> = {},
): Promise<string> {
  const s = await row<{ id: string }>(
    `INSERT INTO flow_streams (account_id, flow_id, version, room_id, contact_id, channel, vars) VALUES ($1, $2, $3, $4, $5, $6, $7::jsonb) RETURNING id`,
    [room.account_id, flow.id, flow.version, room.id, room.contact_id, room.channel, JSON.stringify(vars)],
    { transaction },
  );
  await exec(`INSERT INTO flow_inputs (account_id, stream_id, kind) VALUES ($1, $2, 'start')`, [room.account_id, s!.id], { transaction });
  return s!.id;
}

/** The room's live stream (running or waiting), if any. */
export function liveStreamOf(accountId: string, roomId: string, transaction?: Transaction) {
  return row<{ id: string }>(`SELECT id FROM flow_streams WHERE account_id = $1 AND room_id = $2 AND status IN ('running', 'waiting')`, [accountId, roomId], {
    transaction,
  });
}

/** A visitor's message for the room's live stream. */
export async function addMessageInput(transaction: Transaction, accountId: string, streamId: string, body: string, liveMessageId: string) {
  await exec(`INSERT INTO flow_inputs (account_id, stream_id, kind, body, live_message_id) VALUES ($1, $2, 'message', $3, $4)`, [accountId, streamId, body, liveMessageId], {
    transaction,
  });
}

/**
 * One `flows:events` entry per stream (after COMMIT). Best effort: a failed XADD is logged, and
 * the sweep finds the unconsumed inputs in PostgreSQL within seconds.
 */
export async function wakeStreams(ids: readonly string[]): Promise<void> {
  if (ids.length === 0) return;
  await publishJobs(ids.map((id) => ({ stream: FLOW_EVENTS_STREAM, id, fields: ["stream_id", id] }))).catch((e) =>
    console.warn(`flows: wake of ${ids.length} stream(s) not published (the sweep will): ${e instanceof Error ? e.message : String(e)}`),
  );
}
