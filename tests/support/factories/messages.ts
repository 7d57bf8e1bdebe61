/** Messages (history from the past, inbound ones, odd statuses), their events, campaigns and history exports. */
import { type Query, type SqlExpression, insertRow, insertRows, runDb, updateRows, given, sql } from "./sql";

type Time = Date | string | SqlExpression | null;
export type MessageStatus = "pending" | "queued" | "sending" | "sent" | "delivered" | "read" | "unavailable" | "failed" | "received" | "scheduled" | "rejected" | "optout";

export type MessageFields = {
  channel?: string;
  direction?: "outbound" | "inbound";
  sender?: string;
  recipient?: string;
  body?: string;
  segments?: number;
  coding?: "GSM7" | "UCS2" | null;
  status?: MessageStatus;
  type?: "text" | "location" | "link" | "midia" | "card" | "card-carousel";
  /** RCS: the spec's content JSON (api/rcs/content.ts). */
  content?: Record<string, unknown> | null;
  /** An SMS leg that stood in for an RCS message: that message's id. */
  fallbackOf?: string | null;
  latitude?: number | null;
  longitude?: number | null;
  provider?: string | null;
  route?: string | null;
  providerMessageId?: string | null;
  carrier?: string | null;
  errorCode?: string | null;
  errorMessage?: string | null;
  /** In the currency's smallest unit. */
  price?: number;
  currency?: string;
  campaignId?: string | null;
  createdAt?: Time;
  scheduledAt?: Time;
  queuedAt?: Time;
  sentAt?: Time;
  deliveredAt?: Time;
  readAt?: Time;
  /**
   * When the worker's reconciliation sweep last asked the provider (api/messages/reconcile.ts).
   * Default now: a message written straight into the history is not one the running worker
   * should take for a lost receipt and expire (a `sent` message of 23 days ago turned
   * `unavailable` under a report test when the sweep's minute came).
   */
  statusCheckedAt?: Time;
};

let serial = Math.floor(Math.random() * 5_000_000);
/**
 * A Brazilian mobile number no other test of the run picks; never one ending in the loopback
 * peers' test endings (0000: not RCS-capable; 0001: never delivered on WhatsApp and RBM).
 */
export const mobileNumber = (): string => {
  const n = `+55119${String(10_000_000 + (serial++ % 89_999_999)).padStart(8, "0")}`;
  return /000[01]$/.test(n) ? mobileNumber() : n;
};

/** The defaults: an outbound SMS from LOJA to a fresh number, in the database's default status (pending). */
const message = (accountId: string, fields: MessageFields) => ({
  accountId,
  channel: "sms",
  direction: "outbound",
  sender: "LOJA",
  recipient: mobileNumber(),
  body: "Mensagem de teste",
  statusCheckedAt: sql("now()"),
  ...given(fields),
});

/** Messages written straight into the history (not sent): one statement, ids in the order given. */
export async function makeMessages(accountId: string, rows: MessageFields[], q: Query = runDb): Promise<Array<{ id: string; createdAt: string }>> {
  // created_at to the microsecond in UTC, as the API's keyset cursors compare it.
  const created = await insertRows<{ id: string; created_at: string }>(
    "messages",
    rows.map((r) => message(accountId, r)),
    { returning: `id, to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS created_at` },
    q,
  );
  return created.map((r) => ({ id: r.id, createdAt: r.created_at }));
}

/** One message in the history (see makeMessages); answers its id. */
export async function makeMessage(accountId: string, fields: MessageFields = {}, q: Query = runDb): Promise<string> {
  const [created] = await makeMessages(accountId, [fields], q);
  return created.id;
}

/** Changes messages already written, e.g. setMessages(ids, { campaignId }). */
export async function setMessages(ids: string[], fields: MessageFields, q: Query = runDb): Promise<void> {
  await updateRows("messages", { id: ids }, fields, "id", q);
}

export type MessageEventFields = { status: string; source?: "provider" | "system"; payload?: Record<string, unknown>; createdAt?: Time };

/** A message's status log, oldest first. */
export async function makeMessageEvents(accountId: string, messageId: string, events: MessageEventFields[], q: Query = runDb): Promise<void> {
  // The event's partition is its message's month (ADR 029): message_created_at is the message's created_at.
  const messageCreatedAt = sql(`(SELECT created_at FROM messages WHERE id = '${messageId.replace(/[^0-9a-f-]/gi, "")}'::uuid)`);
  const rows = events.map((e) => ({ messageId, messageCreatedAt, accountId, source: "system", payload: {}, ...given(e) }));
  await insertRows("message_events", rows, {}, q);
}

export type CampaignFields = {
  channel?: string;
  name?: string;
  status?: "scheduled" | "preparing" | "running" | "paused" | "canceled" | "completed" | "failed";
  sender?: string;
  body?: string;
  route?: string | null;
  total?: number;
  startedAt?: Time;
  createdAt?: Time;
};

/** A campaign row (the send use-case creates them with its messages; tests make one to file messages under). Default: a running SMS campaign. */
export async function makeCampaign(accountId: string, fields: CampaignFields = {}, q: Query = runDb): Promise<string> {
  return (await insertRow("campaigns", { accountId, channel: "sms", name: `Campanha ${Date.now().toString(36)}`, ...given(fields) }, "id", q)).id;
}

export async function setCampaign(campaignId: string, fields: CampaignFields, q: Query = runDb): Promise<void> {
  await updateRows("campaigns", { id: campaignId }, fields, "id", q);
}

export type SmsExportFields = {
  status?: "queued" | "processing" | "done" | "failed";
  /** The history filter, as the export form saves it. */
  filter?: Record<string, unknown>;
  createdAt?: Time;
  updatedAt?: Time;
};

/** An SMS history export (the report file) in a given state. */
export async function makeSmsExport(accountId: string, fields: SmsExportFields = {}, q: Query = runDb): Promise<string> {
  const { filter, ...rest } = fields;
  return (await insertRow("sms_exports", { accountId, ...given(rest), filter: filter === undefined ? undefined : JSON.stringify(filter) }, "id", q)).id;
}
