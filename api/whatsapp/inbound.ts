/**
 * What a WhatsApp number hears from its provider, whichever integration (Cloud API webhooks,
 * ./webhooks.ts; the older On-Premises shape): a contact's message and the status of a message we
 * sent. Both integrations post the same objects here (Meta kept the On-Premises API's `messages`
 * and `statuses` in the Cloud API), so one home for each rule:
 *   - whatsappInbound: stored as an inbound WhatsApp message of the number's account
 *     (api/messages/inbound.ts: deduplicated by the provider's message id, opt-out and resume
 *     keywords applied to the whatsapp channel), the contact's 24-hour window opened from its
 *     time (./window.ts), and into the live chat queue (./live.ts);
 *   - whatsappStatus: the provider's status of one of this number's messages (sent, delivered,
 *     read, failed with its error code and title), through the one receipt path.
 */
import { receiveInbound } from "../messages/inbound";
import { applyProviderReceipts, type ProviderReceipt } from "../messages/receipts";
import type { MessageStatus } from "../messages/status";
import { whatsappProvider } from "../channels/whatsapp/adapter";
import { followLiveReceipts } from "../live/pipeline";
import { whatsappToRoom } from "./live";
import { openWindow } from "./window";
import type { NumberWithSecrets } from "./numbers";

export type WhatsappResult = "applied" | "unchanged" | "ignored" | "received" | "duplicate" | "unknown_message";

type Media = { id?: unknown; caption?: unknown; filename?: unknown; mime_type?: unknown };
/** A contact's message as both integrations post it: {from: digits, id, timestamp: seconds, type, and the part of its type}. */
export type WhatsappInboundMessage = {
  from?: unknown;
  id?: unknown;
  timestamp?: unknown;
  type?: unknown;
  text?: { body?: unknown };
  image?: Media;
  video?: Media;
  audio?: Media;
  voice?: Media;
  document?: Media;
  sticker?: Media;
  location?: { latitude?: unknown; longitude?: unknown; name?: unknown; address?: unknown };
  interactive?: { button_reply?: { id?: unknown; title?: unknown }; list_reply?: { id?: unknown; title?: unknown; description?: unknown } };
  button?: { text?: unknown; payload?: unknown };
};

const MEDIA_TYPES = ["image", "video", "audio", "voice", "document", "sticker"] as const;
const str = (v: unknown) => (typeof v === "string" ? v : typeof v === "number" ? String(v) : "");

/** What a contact's message says, as text (a caption, the title of the reply they tapped, a place), and its file. */
function readable(m: WhatsappInboundMessage, type: string): { text: string; media: { id: string; filename: string | null } | null } {
  if (type === "text") return { text: str(m.text?.body), media: null };
  const kind = MEDIA_TYPES.find((k) => k === type);
  if (kind) {
    const part = m[kind];
    const id = str(part?.id);
    return { text: str(part?.caption), media: id ? { id, filename: str(part?.filename) || null } : null };
  }
  if (type === "location" && m.location) {
    const l = m.location;
    return { text: [str(l.name), str(l.address), `${str(l.latitude)},${str(l.longitude)}`].filter(Boolean).join(" — "), media: null };
  }
  if (type === "interactive") return { text: str(m.interactive?.button_reply?.title ?? m.interactive?.list_reply?.title), media: null };
  if (type === "button") return { text: str(m.button?.text), media: null };
  return { text: "", media: null };
}

/**
 * A contact's message to the number: stored (once), the window opened from its time, and — unless
 * it was an opt-out or resume keyword — into the account's live queue (./live.ts).
 * `profileName`: the name the contact gave WhatsApp (the webhook's contacts[].profile.name).
 */
export async function whatsappInbound(number: NumberWithSecrets, m: WhatsappInboundMessage, profileName = ""): Promise<WhatsappResult> {
  const from = `+${String(m.from ?? "").replace(/^\+/, "")}`;
  if (!/^\+[1-9]\d{7,14}$/.test(from) || typeof m.id !== "string" || !m.id) return "ignored";
  const seconds = Number(m.timestamp);
  const occurredAt = Number.isFinite(seconds) && seconds > 0 ? new Date(seconds * 1000) : new Date();
  const type = typeof m.type === "string" ? m.type : "text";
  const said = readable(m, type);
  const body = (said.text || `[${type}]`).slice(0, 4096);
  const outcome = await receiveInbound({
    provider: whatsappProvider(number.integration),
    providerMessageId: m.id.slice(0, 200),
    from,
    to: number.phone_number_id,
    body,
    occurredAt,
    channel: "whatsapp",
    accountId: number.account_id,
  });
  // Also for a duplicate (the provider retried after we stored it but before our answer reached it): the same time again changes nothing.
  await openWindow(number.account_id, number.id, from, occurredAt);
  // The room too (idempotent on the provider's id): a keyword is an instruction to us, not a conversation.
  if (outcome.result === "duplicate" || (outcome.result === "stored" && !outcome.keyword)) {
    await whatsappToRoom(number, { id: m.id.slice(0, 200), from, text: said.text.slice(0, 4096), type, media: said.media, profileName: profileName.slice(0, 120) });
  }
  return outcome.result === "duplicate" ? "duplicate" : "received";
}

/** A status as both integrations post it: {id: the provider's message id, status, timestamp: seconds, errors: [{code, title}]}. */
export type WhatsappStatus = {
  id?: unknown;
  status?: unknown;
  timestamp?: unknown;
  recipient_id?: unknown;
  errors?: Array<{ code?: unknown; title?: unknown; message?: unknown }>;
};
/** How long a status of a message we do not know is asked to be retried (see whatsappStatus). */
const UNKNOWN_RETRY_MS = 10 * 60_000;
const STATUS: Record<string, MessageStatus> = { sent: "sent", delivered: "delivered", read: "read", failed: "failed" };

/**
 * The provider's statuses of messages we sent (one webhook post's: Meta puts several in one under
 * volume), through the one receipt path (api/messages/receipts.ts: deduplicated per message and
 * status, forward-only, announced to the customer's webhooks in the same transaction), in ONE
 * batch. Which of them are this number's own messages is checked on the rows the batch locks (the
 * receipt's scope) and the live rooms follow in the batch's transaction (followLiveReceipts), so a post
 * costs no statement of its own: every post of a flush shares the batch's. Answers each status's
 * result, in order.
 */
export async function whatsappStatuses(number: NumberWithSecrets, list: WhatsappStatus[]): Promise<WhatsappResult[]> {
  const provider = whatsappProvider(number.integration);
  // Only this number's own messages: another number's app cannot move a message it did not send.
  const scope = { accountId: number.account_id, sender: number.phone_number_id };
  const results: WhatsappResult[] = list.map(() => "ignored");
  const receipts: Array<{ index: number; input: ProviderReceipt; seconds: number }> = [];
  for (const [index, st] of list.entries()) {
    const next = typeof st.status === "string" ? STATUS[st.status] : undefined;
    if (!next || typeof st.id !== "string" || !st.id) continue;
    const seconds = Number(st.timestamp);
    const error = st.errors?.[0];
    const reason = next === "failed" ? String(error?.title ?? error?.message ?? "").slice(0, 500) || null : null;
    receipts.push({
      index,
      seconds,
      input: {
        provider,
        providerMessageId: st.id,
        status: next,
        errorCode: next === "failed" && error?.code !== undefined ? String(error.code).slice(0, 40) : null,
        errorMessage: reason,
        occurredAt: Number.isFinite(seconds) && seconds > 0 ? new Date(seconds * 1000) : new Date(),
        eventId: `${st.id}:${next}`,
        scope,
        follow: followLiveReceipts,
      },
    });
  }
  const outcomes = receipts.length ? await applyProviderReceipts(receipts.map((r) => r.input)) : [];
  for (const [i, outcome] of outcomes.entries()) {
    const { index, seconds } = receipts[i];
    // Not (yet) ours: its `sent` may still be being recorded by the worker that sent it, so the
    // provider is asked to retry — but only for a recent status: ours have their id recorded within
    // seconds of the send, and an old one is of a message sent elsewhere (the number used by another app).
    if (outcome.result === "ignored") results[index] = Number.isFinite(seconds) && seconds * 1000 < Date.now() - UNKNOWN_RETRY_MS ? "ignored" : "unknown_message";
    else if (outcome.result === "applied") results[index] = "applied";
    // A repeat, or a status the message is already past (read before delivered): nothing changed.
    else results[index] = outcome.result === "duplicate" ? "duplicate" : "unchanged";
  }
  return results;
}

/** One status (see whatsappStatuses). */
export async function whatsappStatus(number: NumberWithSecrets, st: WhatsappStatus): Promise<WhatsappResult> {
  const [result] = await whatsappStatuses(number, [st]);
  return result;
}
