/**
 * What the channels bring in (ADR 017), once their webhook is verified (./channel-webhooks):
 * visitors' messages become room messages through visitorMessage (idempotent on the provider's
 * message id, so a webhook delivered twice stores one message), their media is fetched from the
 * provider and kept in the live file store, and Messenger/Instagram/Google Business Messages
 * delivery and read receipts move the agent's messages forward only (SENT -> DELIVERED -> READ).
 * A Messenger/Instagram visitor's name comes from their Graph profile when their room opens.
 *
 * A file the channel's limits or the accepted types refuse, or whose URL could not be fetched
 * (refused by the outbound guard, unreachable, an error status: all alike, ADR 021), is left out
 * (the message keeps its text, or names the file it could not keep); a provider's API that cannot
 * be reached (Telegram getFile) makes the webhook answer 5xx, so the provider delivers it again.
 */
import { isAppError } from "../lib/errors";
import { download, graphProfileName, telegram } from "./adapters";
import type { ConnectionWithSecrets } from "./channel-connections";
import type { Attachment, LiveChannel, LiveMessage, Room } from "./rooms/types";
import { roomSummary } from "./rooms/views";
import { visitorMessage } from "./rooms/visitor";
import { publishLive, type LivePublish } from "./streams";
import { attachFilesToRoom, maxUploadBytes, storeFile } from "./uploads";
import { row, rows } from "../lib/sql";

export type Incoming = { fetch: (maxBytes: number) => Promise<{ bytes: Uint8Array; tooLarge: boolean; unavailable?: boolean }>; name: string | null; label: string };

/** Stores the files of an incoming message; those refused are named in `skipped`. */
async function keepFiles(accountId: string, channel: LiveChannel, files: Incoming[]) {
  const attachments: Array<Attachment & { id: string }> = [];
  const skipped: string[] = [];
  const limit = maxUploadBytes(channel);
  for (const f of files) {
    const got = await f.fetch(limit);
    if (got.tooLarge || got.unavailable) {
      skipped.push(f.name ?? f.label);
      continue;
    }
    try {
      attachments.push(await storeFile({ accountId, channel, bytes: got.bytes, name: f.name }));
    } catch (e) {
      if (!isAppError(e)) throw e;
      skipped.push(f.name ?? f.label);
    }
  }
  return { attachments, skipped };
}

/** Was this provider message already stored (a redelivered webhook)? Saves fetching its files again. */
async function seen(accountId: string, channel: LiveChannel, externalId: string, messageId: string): Promise<boolean> {
  const found = await row(
    `SELECT 1 FROM live_messages m JOIN live_rooms r ON r.id = m.room_id
     WHERE r.account_id = $1 AND r.channel = $2 AND r.external_id = $3 AND m.client_id = $4 LIMIT 1`,
    [accountId, channel, externalId, `ext:${messageId}`],
  );
  return Boolean(found);
}

/** Has this visitor an open (or queued) room on the channel? */
async function hasOpenRoom(accountId: string, channel: LiveChannel, externalId: string): Promise<boolean> {
  const found = await row(`SELECT 1 FROM live_rooms WHERE account_id = $1 AND channel = $2 AND external_id = $3 AND status <> 'CLOSED' LIMIT 1`, [accountId, channel, externalId]);
  return Boolean(found);
}

/**
 * A visitor's message from a channel: its files kept, then the room flow's visitorMessage (once per
 * provider message id). Also WhatsApp's (api/whatsapp/live.ts), whose rooms come from a number.
 */
export async function receiveChannelMessage(
  connection: Pick<ConnectionWithSecrets, "account_id">,
  channel: LiveChannel,
  /** username: the visitor's name, or how to look it up (asked only when the message opens a room); phone: theirs, where the channel is a phone number. */
  m: { externalId: string; messageId: string; username: string | (() => Promise<string>); text: string; files: Incoming[]; phone?: string | null },
) {
  if (await seen(connection.account_id, channel, m.externalId, m.messageId)) return { duplicate: true };
  const { attachments, skipped } = await keepFiles(connection.account_id, channel, m.files);
  let body = m.text;
  if (skipped.length) body = [body, ...skipped.map((s) => `[${s}]`)].filter(Boolean).join("\n");
  if (!body.trim() && attachments.length === 0) return { ignored: true };
  const username = typeof m.username === "string" ? m.username : (await hasOpenRoom(connection.account_id, channel, m.externalId)) ? "" : await m.username();
  const result = await visitorMessage({
    accountId: connection.account_id,
    channel,
    externalId: m.externalId,
    username,
    body: body.slice(0, 4096),
    attachments: attachments.map(({ id: _, ...a }) => a),
    externalMessageId: m.messageId,
    phone: m.phone ?? null,
  });
  await attachFilesToRoom(
    connection.account_id,
    attachments.map((a) => a.id),
    result.room.id,
  );
  return { room_id: result.room.id, message_id: result.message.id, duplicate: result.duplicate };
}

// ---- Telegram ----------------------------------------------------------------------------------

type TgFile = { file_id: string; file_name?: string; file_size?: number };
type TgMessage = {
  message_id: number;
  chat: { id: number; title?: string; first_name?: string; last_name?: string; username?: string };
  from?: { first_name?: string; last_name?: string; username?: string; is_bot?: boolean };
  text?: string;
  caption?: string;
  photo?: TgFile[];
  document?: TgFile;
  voice?: TgFile;
  audio?: TgFile;
  video?: TgFile;
  video_note?: TgFile;
  animation?: TgFile;
  sticker?: TgFile & { is_animated?: boolean; is_video?: boolean };
};

/** One Bot API update (only `message`: what a visitor writes to the bot in a private chat). */
export async function telegramUpdate(connection: ConnectionWithSecrets, update: { message?: TgMessage }) {
  const msg = update?.message;
  if (!msg || !msg.chat || typeof msg.message_id !== "number" || msg.from?.is_bot) return { ignored: true };
  const token = connection.secrets.token;
  const files: Incoming[] = [];
  const add = (f: TgFile | undefined, name: string | null, label: string) => {
    if (f?.file_id) files.push({ fetch: (max) => telegram.fetchFile(token, f.file_id, max), name, label });
  };
  if (msg.photo?.length) add(msg.photo[msg.photo.length - 1], `photo-${msg.message_id}.jpg`, "photo");
  add(msg.document, msg.document?.file_name ?? null, "document");
  add(msg.voice, `voice-${msg.message_id}.ogg`, "voice");
  add(msg.audio, msg.audio?.file_name ?? null, "audio");
  add(msg.video, msg.video?.file_name ?? `video-${msg.message_id}.mp4`, "video");
  add(msg.video_note, `video-${msg.message_id}.mp4`, "video");
  add(msg.animation, msg.animation?.file_name ?? `animation-${msg.message_id}.mp4`, "animation");
  add(msg.sticker, `sticker-${msg.message_id}.webp`, "sticker");
  const person = msg.from ?? msg.chat;
  const username = [person.first_name, person.last_name].filter(Boolean).join(" ") || person.username || msg.chat.title || "";
  return receiveChannelMessage(connection, "telegram", {
    externalId: String(msg.chat.id),
    messageId: String(msg.message_id),
    username,
    text: msg.text ?? msg.caption ?? "",
    files,
  });
}

// ---- Messenger and Instagram (Graph webhooks) ----------------------------------------------------

type GraphMessaging = {
  sender?: { id?: string };
  recipient?: { id?: string };
  timestamp?: number;
  message?: {
    mid?: string;
    text?: string;
    is_echo?: boolean;
    quick_reply?: { payload?: string };
    attachments?: Array<{ type?: string; payload?: { url?: string; title?: string } }>;
  };
  delivery?: { mids?: string[]; watermark?: number };
  read?: { watermark?: number; mid?: string };
};
export type GraphPayload = { object?: string; entry?: Array<{ id?: string; time?: number; messaging?: GraphMessaging[] }> };

const EXT: Record<string, string> = { image: "jpg", audio: "ogg", video: "mp4", file: "bin" };

/** One verified Graph webhook post: messages, delivery and read receipts of its entries. */
export async function graphWebhook(connection: ConnectionWithSecrets, channel: "messenger" | "instagram", payload: GraphPayload) {
  const results: unknown[] = [];
  for (const entry of payload?.entry ?? []) {
    // Only the page (or Instagram account) this connection is: another one's events are not ours.
    if (String(entry.id ?? "") !== connection.external_id) continue;
    for (const ev of entry.messaging ?? []) {
      const psid = ev.sender?.id ? String(ev.sender.id) : null;
      if (ev.message && !ev.message.is_echo && psid && ev.message.mid) {
        const mid = String(ev.message.mid);
        const files: Incoming[] = (ev.message.attachments ?? [])
          .filter((a) => a.payload?.url)
          .map((a, i) => ({
            fetch: (max: number) => download(a.payload!.url!, max),
            name: a.payload?.title ?? `${a.type ?? "file"}-${i + 1}.${EXT[a.type ?? "file"] ?? "bin"}`,
            label: a.type ?? "file",
          }));
        const username = () => graphProfileName(connection.secrets.token, channel, psid);
        // A tapped quick reply: its title may be cut at 20 characters, its payload is our whole suggestion.
        const quick = ev.message.quick_reply?.payload;
        const text = typeof quick === "string" && quick.trim() ? quick : (ev.message.text ?? "");
        results.push(await receiveChannelMessage(connection, channel, { externalId: psid, messageId: mid, username, text, files }));
      } else if (ev.delivery && psid) {
        results.push({ delivered: await channelReceipt(connection.account_id, channel, psid, "DELIVERED", ev.delivery) });
      } else if (ev.read && psid) {
        results.push({ read: await channelReceipt(connection.account_id, channel, psid, "READ", ev.read) });
      }
    }
  }
  return results;
}

/**
 * A channel's receipt for the agent's messages to one visitor: the listed provider ids (mids), or
 * every message sent up to the watermark (ms), or up to the named message. Forward only.
 */
export async function channelReceipt(
  accountId: string,
  channel: LiveChannel,
  visitorExternalId: string,
  status: "DELIVERED" | "READ",
  at: { mids?: string[]; watermark?: number; mid?: string },
): Promise<number> {
  const from = status === "DELIVERED" ? ["SENT"] : ["SENT", "DELIVERED"];
  const mids = Array.isArray(at.mids) ? at.mids.map(String).slice(0, 1000) : null;
  const watermark = Number.isFinite(Number(at.watermark)) ? new Date(Number(at.watermark)) : null;
  const upTo = at.mid ? String(at.mid) : null;
  if (!mids?.length && !watermark && !upTo) return 0;
  const changed = await rows<LiveMessage>(
    `UPDATE live_messages m SET status = $4, delivered_at = COALESCE(m.delivered_at, now()),
       read_at = CASE WHEN $4 = 'READ' THEN COALESCE(m.read_at, now()) ELSE m.read_at END, updated_at = now()
     FROM live_rooms r
     WHERE r.id = m.room_id AND r.account_id = $1 AND r.channel = $2 AND r.external_id = $3
       AND m.author <> 'visitor' AND m.external_id IS NOT NULL AND m.status = ANY($5::text[])
       AND (($6::text[] IS NOT NULL AND m.external_id = ANY($6::text[]))
         OR ($6::text[] IS NULL AND $7::timestamptz IS NOT NULL AND m.created_at <= $7)
         OR ($6::text[] IS NULL AND $8::text IS NOT NULL AND m.created_at <= (SELECT created_at FROM live_messages x WHERE x.room_id = m.room_id AND x.external_id = $8)))
     RETURNING m.*`,
    [accountId, channel, visitorExternalId, status, from, mids?.length ? mids : null, watermark, upTo],
  );
  if (changed.length === 0) return 0;
  const byRoom = new Map<string, string[]>();
  for (const m of changed) byRoom.set(m.room_id, [...(byRoom.get(m.room_id) ?? []), m.id]);
  const rooms = await rows<Room>(`SELECT * FROM live_rooms WHERE id = ANY($1::uuid[])`, [[...byRoom.keys()]]);
  await publishLive(
    rooms.map(
      (room): LivePublish => ({
        accountId,
        roomId: room.id,
        event: status === "READ" ? "read" : "delivered",
        to: room.agent_id ? [room.agent_id] : "*",
        data: { room: roomSummary(room), ids: byRoom.get(room.id), by: "visitor" },
      }),
    ),
  );
  return changed.length;
}

// ---- Google Business Messages --------------------------------------------------------------------

export type GbmPayload = {
  agent?: string;
  conversationId?: string;
  message?: { messageId?: string; name?: string; text?: string; image?: { contentUrl?: string; contentInfo?: { fileUrl?: string } }; createTime?: string };
  context?: { userInfo?: { displayName?: string } };
  receipts?: { receipts?: Array<{ message?: string; receiptType?: string }>; createTime?: string };
  /** The visitor tapped one of our suggested replies: `message` is the name of their message. */
  suggestionResponse?: { message?: string; postbackData?: string; text?: string; suggestionType?: string };
  requestId?: string;
  userStatus?: unknown;
};

/** A receipt names one of our messages: conversations/{c}/messages/{our id}[-{part}] (see gbmMessageId). */
const GBM_RECEIPT = /^conversations\/([^/]+)\/messages\/([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})(?:-\d+)?$/i;

/**
 * One verified Business Messages webhook post: a visitor's message (text, or an image Google
 * hosts at image.contentUrl) opens or continues the conversation's room, named after
 * context.userInfo.displayName; a tapped suggested reply is the visitor's message with its text;
 * DELIVERED/READ receipts move our messages forward. Other events (userStatus: typing, live agent
 * requested; action suggestions; surveys) are acknowledged and ignored.
 */
export async function googleBusinessWebhook(connection: ConnectionWithSecrets, payload: GbmPayload) {
  // Another agent's events (a partner-level webhook) are not this connection's.
  if (payload?.agent && payload.agent !== connection.external_id) return { ignored: true };
  const conversationId = typeof payload?.conversationId === "string" ? payload.conversationId : "";
  if (!conversationId) return { ignored: true };
  const msg = payload.message;
  if (msg?.messageId) {
    const url = msg.image?.contentUrl ?? msg.image?.contentInfo?.fileUrl;
    const files: Incoming[] = url ? [{ fetch: (max) => download(url, max), name: null, label: "image" }] : [];
    return receiveChannelMessage(connection, "google_business", {
      externalId: conversationId,
      messageId: String(msg.messageId),
      username: String(payload.context?.userInfo?.displayName ?? "").trim(),
      text: typeof msg.text === "string" ? msg.text : "",
      files,
    });
  }
  const reply = payload.suggestionResponse;
  if (reply && reply.suggestionType !== "ACTION") {
    const text = typeof reply.postbackData === "string" && reply.postbackData.trim() ? reply.postbackData : typeof reply.text === "string" ? reply.text : "";
    const messageId =
      String(reply.message ?? "")
        .split("/")
        .pop() || String(payload.requestId ?? "");
    if (!text.trim() || !messageId) return { ignored: true };
    return receiveChannelMessage(connection, "google_business", {
      externalId: conversationId,
      messageId,
      username: String(payload.context?.userInfo?.displayName ?? "").trim(),
      text,
      files: [],
    });
  }
  if (payload.receipts?.receipts?.length) {
    const ids: Record<"DELIVERED" | "READ", string[]> = { DELIVERED: [], READ: [] };
    for (const r of payload.receipts.receipts.slice(0, 1000)) {
      const m = GBM_RECEIPT.exec(String(r?.message ?? ""));
      if (m && m[1] === conversationId && (r.receiptType === "DELIVERED" || r.receiptType === "READ")) ids[r.receiptType].push(m[2].toLowerCase());
    }
    const delivered = await channelReceipt(connection.account_id, "google_business", conversationId, "DELIVERED", { mids: ids.DELIVERED });
    const read = await channelReceipt(connection.account_id, "google_business", conversationId, "READ", { mids: ids.READ });
    return { delivered, read };
  }
  return { ignored: true };
}
