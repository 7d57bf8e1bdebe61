/**
 * What RBM tells an agent (ADR 055), already verified by the webhook route (./webhook-routes.ts):
 * one event of RBM's agent webhook (the `message.data` of Google's push envelope, decoded):
 *   - a status {agentId, senderPhoneNumber, eventType: DELIVERED | READ, eventId, messageId,
 *     sendTime}: the status of a message we sent (messageId is ours; `<id>-<n>` for part n > 0 of
 *     a message sent as several agent messages), through the one receipt path
 *     (api/messages/receipts.ts: forward-only, deduplicated per message and status, scoped to the
 *     agent's account and Google id, announced to the customer's webhooks);
 *   - a user message {agentId, senderPhoneNumber, messageId, sendTime, text} or a tapped suggestion
 *     {…, suggestionResponse: {postbackData, text, type}}: stored once as an inbound RCS message of
 *     the agent's account (api/messages/inbound.ts: sender the user's number, recipient the agent's
 *     Google id, a tap's postbackData in messages.content and the customer webhook's
 *     `postback_data`; the account's opt-out and resume keywords applied to channel rcs); a text
 *     equal to one of the agent's active RCS keywords (rcs_keywords, case-insensitive) is answered
 *     by the agent with the keyword's answer as an RCS text through the pipeline; anything else is
 *     handed to live chat (receiveRcsInbound, api/rcs/live.ts).
 * Other events (IS_TYPING, …) and unknown agents are `ignored`.
 */
import { sequelize } from "../../models";
import type { SenderCtx } from "../lib/context";
import { rows } from "../lib/sql";
import { followLiveReceipts } from "../live/pipeline";
import { receiveRcsInbound } from "./live";
import { receiveInbound } from "../messages/inbound";
import { applyProviderReceipt } from "../messages/receipts";
import type { MessageStatus } from "../messages/status";
import { RBM_PROVIDER } from "../channels/rcs/rbm";
import { writeRcsMessage } from "./send";

/** A user's message to an agent, as live chat gets it (api/rcs/live.ts receiveRcsInbound). */
export type RcsInbound = {
  accountId: string;
  agent: { id: string; rbm_agent_id: string };
  /** The user's E.164 number. */
  from: string;
  /** What they wrote, or the label of the suggestion they tapped. */
  text: string;
  /** The tapped suggestion's postbackData (absent for a typed text). */
  postbackData?: string;
  /** RBM's messageId of the user's message (dedupe). */
  providerMessageId: string;
  at: Date;
};

/** One RBM agent-webhook event (message.data decoded). */
export type RbmEvent = {
  agentId?: unknown;
  senderPhoneNumber?: unknown;
  messageId?: unknown;
  sendTime?: unknown;
  eventType?: unknown;
  eventId?: unknown;
  text?: unknown;
  suggestionResponse?: { postbackData?: unknown; text?: unknown; type?: unknown };
};

export type RbmResult = "applied" | "unchanged" | "duplicate" | "ignored" | "received" | "answered" | "unknown_message";

const STATUS: Record<string, MessageStatus> = { DELIVERED: "delivered", READ: "read" };
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** How long a status of a message we do not know is asked to be retried (its `sent` may still be being recorded). */
const UNKNOWN_RETRY_MS = 10 * 60_000;
const E164 = /^\+[1-9]\d{7,14}$/;
const str = (v: unknown) => (typeof v === "string" ? v : "");

/** Our message id of an RBM messageId: `<uuid>` or `<uuid>-<part>`; null if it is not one of ours. */
export function ourMessageId(rbmMessageId: string): string | null {
  const m = /^(.{36})(?:-\d{1,3})?$/.exec(rbmMessageId);
  return m && UUID.test(m[1]) ? m[1].toLowerCase() : null;
}

type Agent = { id: string; account_id: string; rbm_agent_id: string };

export async function applyRbmEvent(event: RbmEvent): Promise<RbmResult> {
  const agentId = str(event.agentId);
  if (!agentId) return "ignored";
  const [agent] = await rows<Agent>(`SELECT id, account_id, rbm_agent_id FROM rcs_agents WHERE rbm_agent_id = $1`, [agentId]);
  if (!agent) return "ignored";
  const sent = new Date(str(event.sendTime));
  const at = Number.isNaN(sent.getTime()) ? new Date() : sent;
  const eventType = str(event.eventType);
  if (eventType) return STATUS[eventType] ? status(agent, event, STATUS[eventType], at) : "ignored";
  if (event.text !== undefined || event.suggestionResponse !== undefined) return userMessage(agent, event, at);
  return "ignored";
}

async function status(agent: Agent, event: RbmEvent, next: MessageStatus, at: Date): Promise<RbmResult> {
  const messageId = ourMessageId(str(event.messageId));
  if (!messageId) return "ignored";
  const outcome = await applyProviderReceipt({
    provider: RBM_PROVIDER,
    providerMessageId: messageId,
    status: next,
    occurredAt: at,
    eventId: str(event.eventId).slice(0, 200) || `${str(event.messageId)}:${next}`,
    // Only this agent's own messages, of its account.
    scope: { accountId: agent.account_id, sender: agent.rbm_agent_id },
    channel: "rcs",
    follow: followLiveReceipts,
  });
  // Not (yet) ours: its `sent` may still be being recorded by the worker that sent it (asked to retry while recent).
  if (outcome.result === "ignored") return at.getTime() < Date.now() - UNKNOWN_RETRY_MS ? "ignored" : "unknown_message";
  return outcome.result === "applied" ? "applied" : outcome.result === "duplicate" ? "duplicate" : "unchanged";
}

async function userMessage(agent: Agent, event: RbmEvent, at: Date): Promise<RbmResult> {
  const from = str(event.senderPhoneNumber);
  const providerMessageId = str(event.messageId).slice(0, 200);
  if (!E164.test(from) || !providerMessageId) return "ignored";
  const tap = event.suggestionResponse && typeof event.suggestionResponse === "object" ? event.suggestionResponse : null;
  const text = (tap ? str(tap.text) : str(event.text)).slice(0, 4096);
  const postbackData = tap ? str(tap.postbackData).slice(0, 2048) : undefined;
  const outcome = await receiveInbound({
    provider: RBM_PROVIDER,
    providerMessageId,
    from,
    to: agent.rbm_agent_id,
    body: text,
    occurredAt: at,
    channel: "rcs",
    accountId: agent.account_id,
    content: tap ? { suggestionResponse: { postbackData, text, type: str(tap.type) || "REPLY" } } : null,
  });
  if (outcome.result === "unrouted") return "ignored";
  if (outcome.result === "duplicate") return "duplicate";
  // An opt-out or resume keyword is an instruction to us, not a conversation.
  if (outcome.keyword) return "received";
  if (!tap && (await answerKeyword(agent, from, text))) return "answered";
  const inbound: RcsInbound = {
    accountId: agent.account_id,
    agent: { id: agent.id, rbm_agent_id: agent.rbm_agent_id },
    from,
    text,
    ...(postbackData !== undefined ? { postbackData } : {}),
    providerMessageId,
    at,
  };
  await receiveRcsInbound(inbound);
  return "received";
}

/**
 * A text equal to one of the agent's active keywords (case-insensitive, trimmed) is answered by the
 * agent with the keyword's answer, an RCS text message through the pipeline. Answers whether it was.
 */
async function answerKeyword(agent: Agent, to: string, text: string): Promise<boolean> {
  const word = text.trim();
  if (!word || word.length > 50) return false;
  const [found] = await rows<{ answer: string }>(`SELECT answer FROM rcs_keywords WHERE account_id = $1 AND agent_id = $2 AND active AND lower(keyword) = lower($3) LIMIT 1`, [
    agent.account_id,
    agent.id,
    word,
  ]);
  if (!found) return false;
  // The agent answers as the account's bot (no user); the SMS fallback as the account set it.
  const bot: SenderCtx = { actor: { accountId: agent.account_id, userId: null } };
  try {
    await sequelize().transaction((transaction) => writeRcsMessage(bot, { agent_id: agent.id, to, content: { type: "text", messageText: found.answer } }, transaction));
  } catch (e) {
    // Not answered (the balance ran out, the agent was suspended…): the user's message stays recorded.
    console.warn(`rcs keyword answer of agent ${agent.id} to ${to}: ${(e as Error).message}`);
  }
  return true;
}
