/**
 * RCS as a live chat channel (issue 21, ADR 055 "Live chat"), WhatsApp's pattern (api/whatsapp/live.ts).
 * A handset's message to one of the account's agents (recorded by the RBM callback first, then
 * `receiveRcsInbound`) opens or continues a room of channel `rcs` in the live queue — the room
 * flow's rules: departments, capacity, automatic or manual acceptance, the contact matched by the
 * handset's number, a flow of channel `rcs` (inbound or keyword) attending a new room — named
 * `{agent id}:{handset E.164}`, so one handset writing to two agents has two conversations. A
 * tapped suggestion is the handset's answer: its postbackData (ours carry their label), else its text.
 *
 * The agent's answer (and the flow bot's, api/flows/runtime.ts) is an RCS message of the pipeline
 * (`writeRcsMessage`, in the room's transaction): the spec's content — a text, or a `midia` whose
 * file is our signed link ending in its extension (the live uploads took it under RCS's limit and
 * types), the text after it — with the agent's suggestion buttons (a flow question's choices) as
 * reply suggestions; priced by class, debited, dispatched through the RBM adapter and followed by
 * its statuses (api/live/pipeline.ts). The live message names it.
 */
import { AppError, isAppError } from "../lib/errors";
import { row } from "../lib/sql";
import type { AgentDraft, LiveMessaging } from "../live/adapters";
import { receiveChannelMessage } from "../live/channel-inbound";
import { providerFileLink } from "../live/uploads";
import { rcsMediaLink } from "./content";
import { type SendRcsInput, writeRcsMessage } from "./send";
import type { RcsInbound } from "./inbound";

const E164 = /^\+[1-9]\d{7,14}$/;
const ROOM_ID = /^([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}):(\+[1-9]\d{7,14})$/i;

/** The room of a handset with an agent: `{agent id}:{E.164}`. */
export const rcsRoomId = (agentId: string, handset: string) => `${agentId}:${handset}`;

function roomRef(externalId: string): { agentId: string; handset: string } | null {
  const m = ROOM_ID.exec(externalId);
  return m ? { agentId: m[1], handset: m[2] } : null;
}

/** How long the signed link of an agent's file lives: RBM fetches it when the message is dispatched (retries included). */
const MEDIA_LINK_TTL = 24 * 3600;

/**
 * A handset's message into the account's live queue: its open room with the agent, or a new one
 * (a flow of channel `rcs` may attend it). Idempotent on the provider's message id: a redelivered
 * callback adds nothing. An agent that is not the account's adds nothing either.
 */
export async function receiveRcsInbound(inbound: RcsInbound): Promise<void> {
  if (!E164.test(inbound.from) || !inbound.providerMessageId) return;
  const own = await row(`SELECT 1 FROM rcs_agents WHERE id = $1 AND account_id = $2`, [inbound.agent.id, inbound.accountId]);
  if (!own) return;
  const tapped = inbound.postbackData?.trim();
  await receiveChannelMessage({ account_id: inbound.accountId }, "rcs", {
    externalId: rcsRoomId(inbound.agent.id, inbound.from),
    messageId: inbound.providerMessageId.slice(0, 200),
    username: inbound.from,
    text: (tapped || inbound.text).slice(0, 4096),
    files: [],
    phone: inbound.from,
  });
}

const refuse = (field: string, key: string) => new AppError("VALIDATION", { fields: { [field]: [key] } });

/** The draft as the spec's content: a text, or the file (our signed link, with its extension) with the text after it; the buttons as reply suggestions. */
function draftContent(draft: AgentDraft): NonNullable<SendRcsInput["content"]> {
  if (draft.template) throw refuse("template", "validation.option");
  if (draft.attachments.length > 1) throw refuse("attachments", "validation.maxItems::1");
  const suggestions = draft.suggestions.length ? draft.suggestions.map((text) => ({ type: "reply" as const, text, postbackData: text })) : undefined;
  const messageText = draft.body || undefined;
  const [file] = draft.attachments;
  if (!file) return { type: "text", messageText, suggestions };
  const fileUrl = providerFileLink(file, MEDIA_LINK_TTL, rcsMediaLink, true);
  if (!fileUrl) throw refuse("attachments", "validation.rcsMediaUrl");
  return { type: "midia", fileUrl, messageText, suggestions };
}

/** The draft's fields, as the composer names them: the content's refusals read as the text's, the buttons' or the file's. */
const FIELD_OF: Array<[RegExp, string]> = [
  [/^content\.suggestions/, "suggestions"],
  [/^content\.(fileUrl|imageUrl)/, "attachments"],
  [/^agent_id$/, "body"],
  [/^/, "body"],
];

function asRoomRefusal(e: unknown): unknown {
  if (!isAppError(e) || e.code !== "VALIDATION" || !e.fields) return e;
  const fields: Record<string, string[]> = {};
  for (const [name, keys] of Object.entries(e.fields)) {
    const field = FIELD_OF.find(([re]) => re.test(name))![1];
    // The room's agent is gone from the account (it was removed): the room cannot answer.
    const mapped = name === "agent_id" ? keys.map((k) => (k === "validation.option" ? "validation.rcsAgentGone" : k)) : keys;
    (fields[field] ??= []).push(...mapped);
  }
  return new AppError("VALIDATION", { fields });
}

export const rcsLive: LiveMessaging = {
  async accept(ctx, room, draft, transaction) {
    const ref = roomRef(room.external_id);
    if (!ref) throw refuse("body", "validation.rcsAgentGone");
    const content = draftContent(draft);
    let status: string;
    let messageId: string;
    try {
      const { answer } = await writeRcsMessage(ctx, { agent_id: ref.agentId, to: ref.handset, content }, transaction);
      ({ status, id: messageId } = answer.data);
    } catch (e) {
      throw asRoomRefusal(e);
    }
    // An opted-out or denied handset: nothing goes, and the agent is told why (the whole message rolls back).
    if (status !== "queued") throw refuse("body", "validation.rcsContactBlocked");
    return { body: draft.body, messageId };
  },
};
