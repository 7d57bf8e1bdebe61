/**
 * WhatsApp as a live chat channel (issue 16). A contact's message to one of the account's numbers
 * (./inbound.ts, either integration) opens or continues a room of channel `whatsapp` in the live
 * queue — the existing room flow: departments, capacity, automatic or manual acceptance — named
 * `{number id}:{contact E.164}`, so one contact writing to two numbers has two conversations. Its
 * files are fetched from the provider and kept like any channel's (the spec's WhatsApp limits).
 *
 * The agent's answer is a message of the pipeline (`accept`, in the room's transaction): the
 * WhatsApp send's own rules (free-form text and files only inside the contact's 24-hour window,
 * else an approved template of the number with its variables; opt-outs refused), priced by
 * category, debited, dispatched through the number's adapter and followed by the provider's
 * statuses; the live message names it, and those statuses reach the room (api/live/pipeline.ts).
 * A flow's bot messages take the same path (api/flows/runtime.ts, ADR 054), as `botSender`. A file goes as Graph's media object by a signed link of ours, which the
 * provider fetches.
 */
import type { Transaction } from "sequelize";
import type { SenderCtx, SignedInCtx } from "../lib/context";
import { AppError } from "../lib/errors";
import { row, rows } from "../lib/sql";
import type { AgentDraft, LiveConnection, LiveMessaging } from "../live/adapters";
import { receiveChannelMessage, type Incoming } from "../live/channel-inbound";
import { getRoom } from "../live/rooms/queries";
import type { Room } from "../live/rooms/types";
import { providerFileLink } from "../live/uploads";
import { INTEGRATIONS } from "./integrations";
import { numberById, ownNumber, type NumberWithSecrets } from "./numbers";
import { variablesOf } from "./schemas";
import { publicMediaLink, type SendWhatsappInput, writeWhatsappMessage } from "./send";
import { windowOf } from "./window";

const ROOM_ID = /^([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}):(\+[1-9]\d{7,14})$/i;

/** The room of a contact on a number: `{number id}:{E.164}`. */
export const whatsappRoomId = (numberId: string, contact: string) => `${numberId}:${contact}`;

function roomRef(externalId: string): { numberId: string; contact: string } | null {
  const m = ROOM_ID.exec(externalId);
  return m ? { numberId: m[1], contact: m[2] } : null;
}

/** How long the signed link of an agent's file lives: the provider fetches it when the message is dispatched (retries included). */
const MEDIA_LINK_TTL = 24 * 3600;

/** A contact's message as the room takes it: its text (caption, reply title, place) and its file, if any. */
export type RoomInbound = { id: string; from: string; text: string; type: string; media: { id: string; filename: string | null } | null; profileName: string };

/** A contact's message into the account's live queue (it was stored as an inbound WhatsApp message first). */
export async function whatsappToRoom(number: NumberWithSecrets, m: RoomInbound) {
  const media = m.media;
  const integration = INTEGRATIONS[number.integration];
  const files: Incoming[] = media
    ? [
        {
          fetch: (max) => integration.media(number, media.id, max),
          name: media.filename,
          label: m.type,
        },
      ]
    : [];
  return receiveChannelMessage({ account_id: number.account_id }, "whatsapp", {
    externalId: whatsappRoomId(number.id, m.from),
    messageId: m.id,
    username: m.profileName || m.from,
    text: m.text,
    files,
    phone: m.from,
  });
}

const refuse = (field: string, key: string) => new AppError("VALIDATION", { fields: { [field]: [key] } });

/** The room's number (of the account), or a refusal naming the message: it was disconnected since. */
async function roomNumber(room: Pick<Room, "account_id" | "external_id">) {
  const ref = roomRef(room.external_id);
  const number = ref ? await ownNumber(room.account_id, ref.numberId).catch(() => null) : null;
  if (!ref || !number) throw refuse("body", "validation.waNumberGone");
  return { number, contact: ref.contact };
}

/** The agent's draft as a WhatsApp send (Graph's message object), the free-form text written first when the file takes no caption. */
async function draftSends(room: Room, number: NumberWithSecrets, contact: string, draft: AgentDraft, transaction: Transaction): Promise<SendWhatsappInput[]> {
  const base = { from: number.id, to: contact };
  if (draft.template) {
    if (draft.attachments.length) throw refuse("template", "validation.waTemplateNoFiles");
    const t = await row<{ name: string; language: string }>(
      `SELECT name, language FROM whatsapp_templates WHERE id::text = $1 AND account_id = $2 AND number_id = $3`,
      [draft.template.id, room.account_id, number.id],
      {
        transaction,
      },
    );
    if (!t) throw refuse("template", "validation.option");
    return [{ ...base, type: "template", template: { name: t.name, language: t.language, variables: draft.template.variables } }];
  }
  if (draft.attachments.length > 1) throw refuse("attachments", "validation.maxItems::1");
  const [file] = draft.attachments;
  if (!file) return [{ ...base, type: "text", text: { body: draft.body } }];
  // Our own upload (an agent's file): a signed link to it; else a public https link (a flow's media URL), as the send API takes.
  const link = providerFileLink(file, MEDIA_LINK_TTL, publicMediaLink);
  if (!link) throw refuse("attachments", "validation.option");
  const caption = draft.body || undefined;
  switch (file.type) {
    case "image":
    case "video":
      return [{ ...base, type: file.type, [file.type]: { link, caption } }];
    case "document":
      return [{ ...base, type: "document", document: { link, caption, filename: file.name.slice(0, 240) } }];
    default: {
      // Audio and stickers take no caption: the text goes first, as its own message.
      const media: SendWhatsappInput = { ...base, type: file.type, [file.type]: { link } };
      return caption ? [{ ...base, type: "text", text: { body: caption } }, media] : [media];
    }
  }
}

export const whatsappLive: LiveMessaging = {
  /** The number the room's contact wrote to, as the connection the signals use. */
  async connectionFor(accountId, roomExternalId) {
    const ref = roomRef(roomExternalId);
    const n = ref ? await ownNumber(accountId, ref.numberId).catch(() => null) : null;
    if (!n) return null;
    return {
      id: n.id,
      account_id: n.account_id,
      channel: "whatsapp",
      external_id: n.phone_number_id,
      name: n.display_phone_number,
      created_at: n.created_at,
      updated_at: n.updated_at,
      secrets: { token: n.secrets.access_token },
    } satisfies LiveConnection;
  },

  // Its text goes without Graph's buttons (an agent's suggestions are not shown; the flow bot numbers its choices).
  noSuggestions: true,

  async accept(ctx: SenderCtx, room, draft, transaction) {
    const { number, contact } = await roomNumber(room);
    let body = draft.body;
    let messageId = "";
    for (const send of await draftSends(room, number, contact, draft, transaction)) {
      const { answer, text } = await writeWhatsappMessage(ctx, send, number, transaction);
      // An opted-out or denied contact: nothing goes, and the agent is told why (the whole message rolls back).
      if (answer.data.status !== "queued") throw refuse("body", "validation.waContactBlocked");
      messageId = answer.data.id;
      if (send.type === "template") body = text;
    }
    return { body, messageId };
  },

  /** The blue ticks: the contact's newest message read (where the integration has it). */
  async seen(connection, _room, lastMessageId) {
    if (!lastMessageId) return;
    const n = await numberById(connection.id);
    if (n) await INTEGRATIONS[n.integration].markRead(n, lastMessageId);
  },
};

type ComposerTemplate = { id: string; name: string; language: string; category: string; body: string; variables: number };

/**
 * What the composer of a WhatsApp room may send now (GET /api/whatsapp/rooms/{id}/composer): the
 * room's number and contact, the contact's 24-hour window, and the number's approved templates
 * the composer can fill — those whose only variables are the body's (a header or URL variable
 * needs the send screen). For whoever may see the room.
 */
export async function whatsappRoomComposer(ctx: SignedInCtx, roomId: string) {
  const room = await getRoom(ctx, roomId);
  const ref = roomRef(room.external_id);
  const number = ref ? await ownNumber(room.account_id, ref.numberId).catch(() => null) : null;
  if (!ref || !number) throw new AppError("NOT_FOUND");
  const [window, found] = await Promise.all([
    windowOf(room.account_id, number.id, ref.contact),
    rows<{
      id: string;
      name: string;
      language: string;
      category: string;
      components: Array<{ type: string; text?: string; format?: string; buttons?: Array<{ type: string; url?: string }> }>;
    }>(`SELECT id, name, language, category, components FROM whatsapp_templates WHERE account_id = $1 AND number_id = $2 AND status = 'approved' ORDER BY name, language`, [
      room.account_id,
      number.id,
    ]),
  ]);
  const templates: ComposerTemplate[] = [];
  for (const t of found) {
    const part = (type: string) => t.components.find((c) => c.type === type);
    const header = part("HEADER");
    const urlVariable = part("BUTTONS")?.buttons?.some((b) => b.type === "URL" && variablesOf(b.url ?? "").length > 0);
    if ((header?.format === "TEXT" && variablesOf(header.text ?? "").length > 0) || urlVariable) continue;
    const body = part("BODY")?.text ?? "";
    templates.push({ id: t.id, name: t.name, language: t.language, category: t.category, body, variables: variablesOf(body).length });
  }
  return {
    data: {
      number: { id: number.id, display_phone_number: number.display_phone_number, verified_name: number.verified_name },
      contact: ref.contact,
      window,
      templates,
    },
  };
}
