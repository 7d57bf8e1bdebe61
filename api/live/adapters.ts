/**
 * The live chat channels' transports (ADR 017), behind one contract. Each adapter owns everything
 * its channel does differently: `verify` the connect form's credentials, `connect` (tell the
 * provider where to post) and `disconnect` (undo it), `send` an agent's message (text and
 * attachments) to a visitor, and the best-effort `typing`/`seen`. The connection use-cases
 * (./channel-connections) and the outbound worker (./outbound) speak only this contract and pick
 * the adapter from the registry by the channel; no other code branches on the channel. Each speaks
 * the provider's real API at a base URL from the environment (TELEGRAM_API_URL, GRAPH_API_URL,
 * GBM_API_URL, GBM_TOKEN_URL — never a URL a tenant chose, ADR 021) through the guarded client
 * (api/lib/outbound), so tests use a loopback peer.
 *
 * Errors: a ProviderError is permanent (4xx other than 408/429: retrying cannot help, the message
 * fails at once) or transient (5xx, 429, network: the worker retries, then fails it). `verify` and
 * `connect` refuse with a VALIDATION AppError naming the form field to blame.
 */
import { createPrivateKey, randomUUID } from "node:crypto";
import type { Transaction } from "sequelize";
import type { SenderCtx } from "../lib/context";
import { randomToken } from "../lib/crypto";
import { env } from "../lib/env";
import { forgetAccessToken, GoogleTokenError, googleAccessToken } from "../lib/google-oauth";
import { AppError } from "../lib/errors";
import { isOutboundError, outboundFetch, type OutboundInit, type OutboundResponse } from "../lib/outbound";
import type { ChannelSecrets, ConnectionWithSecrets } from "./channel-connections";
import { readServiceAccountKey, type ConnectableChannel, type ConnectInput, type ServiceAccountKey } from "./channel-schemas";
import type { Attachment, LiveChannel, LiveMessage, Room } from "./rooms";
import { fileBytes, fileIdOf, signedFileUrl } from "./uploads";
import { row } from "../lib/sql";

const TIMEOUT_MS = 15_000;

export class ProviderError extends Error {
  constructor(
    message: string,
    readonly permanent: boolean,
    readonly status?: number,
  ) {
    super(message);
    this.name = "ProviderError";
  }
}

const permanentStatus = (status: number) => status >= 400 && status < 500 && status !== 408 && status !== 429;

/** The largest answer of a provider's API we read (JSON; files go through download). */
const MAX_API_BYTES = 1_000_000;

/**
 * One call of a provider's API through the guarded client (api/lib/outbound). Its base URL is the
 * platform's (env), never a tenant's. A failure's reason keeps the status code, never the answer's
 * body: it ends up on the tenant's room (the body goes to our log).
 */
type Call = Pick<OutboundInit, "method" | "headers" | "body">;

// biome-ignore lint/suspicious/noExplicitAny: the JSON of Telegram, Graph and Business Messages; each caller checks what it reads
async function request(url: string, init: Call, timeoutMs = TIMEOUT_MS): Promise<{ status: number; json: any }> {
  let res: OutboundResponse;
  try {
    res = await outboundFetch(url, { ...init, timeoutMs, maxBytes: MAX_API_BYTES, trust: "platform" });
  } catch (e) {
    throw new ProviderError(`network: ${(e as Error).message}`, false);
  }
  // biome-ignore lint/suspicious/noExplicitAny: see request()
  let json: any = null;
  try {
    json = res.json();
  } catch {
    json = null;
  }
  if (res.status >= 300) console.warn(`provider ${new URL(url).pathname.replace(/\/bot[^/]+/, "/bot…")} answered ${res.status}: ${res.text().slice(0, 300)}`);
  return { status: res.status, json };
}

/** A failed call's reason for the room: what was called and the status code. */
const failed = (what: string, status: number) => new ProviderError(`${what}: HTTP ${status}`, permanentStatus(status), status);

/** How many redirects a media download follows (CDNs redirect), each hop checked again by the guard. */
const DOWNLOAD_REDIRECTS = 3;

/**
 * Downloads a file a webhook names (a provider's CDN, or whatever URL the payload carries: it is
 * checked like any tenant URL unless its origin is a configured platform one), refusing more than
 * `maxBytes`. Any failure answers `unavailable` — a refused address and a dead server look alike —
 * and the message is kept without the file.
 */
export async function download(url: string, maxBytes: number): Promise<{ bytes: Uint8Array; tooLarge: boolean; unavailable?: boolean }> {
  try {
    const res = await outboundFetch(url, { timeoutMs: TIMEOUT_MS * 2, maxBytes, redirects: DOWNLOAD_REDIRECTS });
    if (res.status >= 200 && res.status < 300) return { bytes: res.body, tooLarge: false };
    console.warn(`download of a channel file answered ${res.status}`);
  } catch (e) {
    if (isOutboundError(e) && e.reason === "too_large") return { bytes: new Uint8Array(), tooLarge: true };
    console.warn(`download of a channel file failed: ${isOutboundError(e) ? e.detail : (e as Error).message}`);
  }
  return { bytes: new Uint8Array(), tooLarge: false, unavailable: true };
}

/** The bytes of one of our attachments, as a Blob for a multipart upload. */
async function attachmentBlob(a: Attachment): Promise<{ blob: Blob; name: string }> {
  const id = fileIdOf(a.uri);
  const found = id ? await fileBytes(id) : null;
  if (!found) throw new ProviderError(`attachment ${a.uri} is not stored here`, true);
  return { blob: new Blob([Buffer.from(found.bytes)], { type: found.file.media_type }), name: found.file.name };
}

// ---- Telegram Bot API ----------------------------------------------------------------------------

const tgUrl = (token: string, method: string) => `${env().TELEGRAM_API_URL.replace(/\/+$/, "")}/bot${token}/${method}`;

// biome-ignore lint/suspicious/noExplicitAny: Telegram's result, typed by the caller
async function tgCall<T = any>(token: string, method: string, body: Record<string, unknown> | FormData): Promise<T> {
  const init: Call = body instanceof FormData ? { method: "POST", body } : { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) };
  const { status, json } = await request(tgUrl(token, method), init);
  if (status >= 200 && status < 300 && json?.ok) return json.result as T;
  throw failed(`telegram ${method}`, status);
}

/** Which Bot API method sends which kind of attachment, and under which field. */
const TG_SEND: Record<Attachment["type"], [method: string, field: string]> = {
  image: ["sendPhoto", "photo"],
  audio: ["sendVoice", "voice"],
  video: ["sendVideo", "video"],
  sticker: ["sendSticker", "sticker"],
  document: ["sendDocument", "document"],
};

export const telegram = {
  getMe: (token: string) => tgCall<{ id: number; username?: string; first_name?: string }>(token, "getMe", {}),
  setWebhook: (token: string, url: string, secret: string) => tgCall(token, "setWebhook", { url, secret_token: secret, allowed_updates: ["message"], drop_pending_updates: false }),
  deleteWebhook: (token: string) => tgCall(token, "deleteWebhook", {}),
  /** A file the visitor sent: getFile, then the download URL of its file_path. */
  async fetchFile(token: string, fileId: string, maxBytes: number) {
    const file = await tgCall<{ file_path?: string; file_size?: number }>(token, "getFile", { file_id: fileId });
    if (file.file_size && file.file_size > maxBytes) return { bytes: new Uint8Array(), tooLarge: true };
    if (!file.file_path) throw new ProviderError("telegram getFile: no file_path", true);
    return download(`${env().TELEGRAM_API_URL.replace(/\/+$/, "")}/file/bot${token}/${file.file_path}`, maxBytes);
  },
};

// ---- Meta Graph (Messenger, Instagram) -----------------------------------------------------------

const graphBase = () => env().GRAPH_API_URL.replace(/\/+$/, "");

/**
 * The visitor's name from their Graph profile (Messenger: first_name + last_name of the PSID;
 * Instagram: name, else username of the IGSID). Best effort: any failure answers "".
 */
export async function graphProfileName(token: string, channel: "messenger" | "instagram", userId: string): Promise<string> {
  const fields = channel === "messenger" ? "first_name,last_name" : "name,username";
  try {
    const url = `${graphBase()}/${encodeURIComponent(userId)}?fields=${fields}&access_token=${encodeURIComponent(token)}`;
    const { status, json } = await request(url, { method: "GET" }, 5_000);
    if (status < 200 || status >= 300 || !json) return "";
    const name = channel === "messenger" ? [json.first_name, json.last_name].filter((v) => typeof v === "string" && v.trim()).join(" ") : json.name || json.username;
    return typeof name === "string" ? name.trim().slice(0, 120) : "";
  } catch {
    return "";
  }
}

const GRAPH_TYPE: Record<Attachment["type"], string> = { image: "image", sticker: "image", audio: "audio", video: "video", document: "file" };

async function graphSend(token: string, body: Record<string, unknown> | FormData): Promise<string> {
  const url = `${graphBase()}/me/messages?access_token=${encodeURIComponent(token)}`;
  const init: Call = body instanceof FormData ? { method: "POST", body } : { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) };
  const { status, json } = await request(url, init);
  if (status >= 200 && status < 300 && json?.message_id) return String(json.message_id);
  throw failed("graph /me/messages", status);
}

/** A sender action (typing_on, mark_seen): Graph answers only the recipient. */
async function graphAction(token: string, recipient: string, action: "typing_on" | "mark_seen"): Promise<void> {
  const url = `${graphBase()}/me/messages?access_token=${encodeURIComponent(token)}`;
  const { status } = await request(
    url,
    { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ recipient: { id: recipient }, sender_action: action }) },
    TYPING_TIMEOUT_MS,
  );
  if (status >= 200 && status < 300) return;
  throw failed("graph sender_action", status);
}

/** "Typing…" and "seen" are worth nothing late: a short timeout, and no retry. */
const TYPING_TIMEOUT_MS = 3000;

// ---- Google Business Messages -------------------------------------------------------------------

const GBM_SCOPE = "https://www.googleapis.com/auth/businessmessages";
/** Business Messages takes at most 3,072 characters of text per message. */
const GBM_TEXT_MAX = 3072;
/** How long the signed URLs we hand Google live: an image is fetched by Google when sent; a link is opened by the visitor later. */
const GBM_IMAGE_URL_TTL = 24 * 3600;
const GBM_LINK_TTL = 7 * 24 * 3600;

const gbmBase = () => env().GBM_API_URL.replace(/\/+$/, "");

/** The service account's access token for Business Messages (api/lib/google-oauth.ts), from the platform's token endpoint; a refusal as a ProviderError. */
async function gbmAccessToken(key: ServiceAccountKey): Promise<string> {
  try {
    return await googleAccessToken(key, GBM_SCOPE, env().GBM_TOKEN_URL);
  } catch (e) {
    if (e instanceof GoogleTokenError) throw new ProviderError(e.message, e.permanent, e.status || undefined);
    throw e;
  }
}

/** The messageId of the n-th Business Messages message one of ours is sent as (the first is our own id). */
export const gbmMessageId = (messageId: string, part: number) => (part === 0 ? messageId : `${messageId}-${part}`);

/**
 * conversations.messages.create. Google refuses a messageId it already has with 409
 * ALREADY_EXISTS: that message went out on an earlier attempt, so it counts as sent (retries are
 * idempotent). A 401 (token revoked or expired early) gets a new token once.
 */
async function gbmCreate(key: ServiceAccountKey, conversationId: string, message: Record<string, unknown>): Promise<void> {
  const url = `${gbmBase()}/v1/conversations/${encodeURIComponent(conversationId)}/messages`;
  for (let attempt = 0; ; attempt++) {
    const token = await gbmAccessToken(key);
    const { status, json } = await request(url, {
      method: "POST",
      headers: { "Content-Type": "application/json", Authorization: `Bearer ${token}` },
      body: JSON.stringify(message),
    });
    if (status >= 200 && status < 300) return;
    if (status === 409 && (json?.error?.status ?? "ALREADY_EXISTS") === "ALREADY_EXISTS") return;
    if (status === 401 && attempt === 0) {
      forgetAccessToken(key, GBM_SCOPE, env().GBM_TOKEN_URL);
      continue;
    }
    throw failed("google business messages", status);
  }
}

/** A best-effort Business Messages call (typing, read receipt): short timeout, no retry. */
async function gbmSignal(key: ServiceAccountKey, method: "POST" | "PATCH", path: string, body: Record<string, unknown>): Promise<void> {
  const token = await gbmAccessToken(key);
  const { status } = await request(
    `${gbmBase()}${path}`,
    { method, headers: { "Content-Type": "application/json", Authorization: `Bearer ${token}` }, body: JSON.stringify(body) },
    TYPING_TIMEOUT_MS,
  );
  if (status < 200 || status >= 300) throw failed(`google business messages ${path.split("?")[0]}`, status);
}

async function agentName(userId: string | null): Promise<string> {
  if (!userId) return "";
  const found = await row<{ name: string }>(`SELECT trim(first_name || ' ' || last_name) AS name FROM users WHERE id = $1`, [userId]);
  return found?.name ?? "";
}

// ---- the contract ----------------------------------------------------------------------------------

export type SentResult = { externalId: string };

/**
 * What an agent (or the flow bot) writes, before it is stored: its text and files, a template where
 * the channel has them, and the suggestion buttons under it (a channel that shows them takes them).
 */
export type AgentDraft = { body: string; attachments: Attachment[]; template: { id: string; variables: string[] } | null; suggestions: readonly string[] };

/** The connect form of channel(s) `C`. */
export type ConnectInputOf<C extends ConnectableChannel> = Extract<ConnectInput, { channel: C }>;
/** The fields of a connect form (its `channel` aside), one form at a time. */
type FormField<I> = I extends unknown ? Exclude<keyof I, "channel"> : never;

/** What a connection row keeps of a verified connect form. */
export type VerifiedConnection = {
  /** The provider's id of the business's account there (bot id, page id, agent name): unique per channel. */
  externalId: string;
  /** A display name for the list, when the provider told us one. */
  name: string;
  secrets: ChannelSecrets;
};

/** A VALIDATION error naming the connect form's field to blame (a locale key under channels.errors). */
const refused = (field: string, error: string) => new AppError("VALIDATION", { fields: { [field]: [error] } });

/** What a channel does with a room's messages: all the outbound worker and the signals use. */
/** What a room goes out through: a channel connection, or for WhatsApp the number the contact wrote to. */
export type LiveConnection = Omit<ConnectionWithSecrets, "channel"> & { channel: LiveChannel };

export interface LiveMessaging {
  /**
   * Sends the agent's message to the room's visitor (the live outbound worker, ./outbound); answers
   * the provider's message id (the first one when it took several calls). Absent for a channel whose
   * messages go through the message pipeline instead (`accept`).
   */
  send?(connection: LiveConnection, room: Room, message: LiveMessage): Promise<SentResult>;
  /** Shows the visitor that the agent is typing, where the channel has it (best effort). */
  typing?(connection: LiveConnection, room: Pick<Room, "external_id">): Promise<void>;
  /** Tells the visitor the agent read their messages up to `lastMessageId`, where the channel has it (best effort). */
  seen?(connection: LiveConnection, room: Pick<Room, "external_id">, lastMessageId: string | null): Promise<void>;
  /**
   * The connection a room of this channel is reached through, where it is not the account's one
   * connection of the channel (WhatsApp: the number the contact wrote to, named by the room).
   */
  connectionFor?(accountId: string, roomExternalId: string): Promise<LiveConnection | null>;
  /**
   * A channel whose agent messages are messages of the pipeline (WhatsApp: checked against the
   * contact's window, priced, debited, dispatched through the channel's adapter and followed by
   * its statuses like any WhatsApp message): accepts the draft there, in the room's transaction,
   * and answers the text the room shows and the pipeline message its status follows (refusing
   * with a VALIDATION AppError). Without it, a template is refused and the live outbound worker
   * sends the message (`send`). It checks no route permission (its caller did: the agent's
   * sendAgentMessage, or the flow runtime for the account's bot, `ctx.actor.userId` null).
   */
  accept?(ctx: SenderCtx, room: Room, draft: AgentDraft, transaction: Transaction): Promise<{ body: string; messageId: string }>;
  /** The channel shows no suggestion buttons (WhatsApp's text): the flow bot lists its choices numbered in the text instead. */
  readonly noSuggestions?: boolean;
}

/** Everything a channel does differently: its messages, and the life of its connection (of the connect form `Form`). */
export interface LiveChannelAdapter<Form extends ConnectInput = ConnectInput> extends LiveMessaging {
  /** The connect form's field that names the provider's account: blamed when another account of ours has connected it. */
  readonly accountField: FormField<Form>;
  /** Checks the connect form's credentials (with the provider where it can) and answers what the row keeps; refuses naming the field. */
  verify(input: Form): Promise<VerifiedConnection>;
  /** Once the connection is saved: tells the provider to post to `webhookUrl`. A refusal names the field; the connection is then removed. */
  connect?(connection: ConnectionWithSecrets, webhookUrl: string): Promise<void>;
  /** Once the connection is removed: tells the provider to stop posting. Best effort: it logs a failure and never throws. */
  disconnect?(connection: ConnectionWithSecrets): Promise<void>;
}

/** Telegram ReplyKeyboardMarkup for the suggestion buttons: two per row, hidden after a tap. */
export function telegramKeyboard(suggestions: readonly string[] | undefined) {
  if (!suggestions?.length) return null;
  const rows: Array<Array<{ text: string }>> = [];
  for (let i = 0; i < suggestions.length; i += 2) rows.push(suggestions.slice(i, i + 2).map((text) => ({ text })));
  return { keyboard: rows, one_time_keyboard: true, resize_keyboard: true };
}

/**
 * Messenger/Instagram quick replies for the suggestion buttons. Their titles stop at 20 characters;
 * the payload keeps the whole suggestion, and the inbound webhook takes it as the visitor's text.
 */
export function graphQuickReplies(suggestions: readonly string[] | undefined) {
  if (!suggestions?.length) return undefined;
  return suggestions.map((s) => ({ content_type: "text", title: [...s].slice(0, GRAPH_QUICK_REPLY_TITLE).join(""), payload: s }));
}
const GRAPH_QUICK_REPLY_TITLE = 20;

/** Business Messages suggested replies (25 characters each, as ours). */
export function gbmSuggestions(suggestions: readonly string[] | undefined) {
  if (!suggestions?.length) return undefined;
  return suggestions.map((text) => ({ reply: { text, postbackData: text } }));
}

const telegramAdapter: LiveChannelAdapter<ConnectInputOf<"telegram">> = {
  accountField: "bot_token",
  /** getMe proves the token and names the bot; the webhook gets a fresh secret of its own. */
  async verify(input) {
    const me = await telegram.getMe(input.bot_token).catch(() => null);
    if (!me) throw refused("bot_token", "channels.errors.botTokenRejected");
    return { externalId: String(me.id), name: me.username ? `@${me.username}` : (me.first_name ?? ""), secrets: { token: input.bot_token, webhook_secret: randomToken(32) } };
  },
  /** Telegram posts every update to our URL with the secret in X-Telegram-Bot-Api-Secret-Token. */
  async connect(connection, webhookUrl) {
    const rejected = () => refused("bot_token", "channels.errors.webhookRejected");
    const secret = connection.secrets.webhook_secret;
    if (!secret) throw rejected();
    await telegram.setWebhook(connection.secrets.token, webhookUrl, secret).catch(() => {
      throw rejected();
    });
  },
  async disconnect(connection) {
    await telegram.deleteWebhook(connection.secrets.token).catch((e) => console.warn(`telegram deleteWebhook for ${connection.id} failed: ${(e as Error).message}`));
  },
  async send(connection, room, message) {
    const token = connection.secrets.token;
    const ids: string[] = [];
    let caption: string | undefined = message.body || undefined;
    // Suggestion buttons: a one-time reply keyboard on the last call (a tap sends its text back).
    const keyboard = telegramKeyboard(message.suggestions);
    for (const [i, a] of message.attachments.entries()) {
      const [method, field] = TG_SEND[a.type];
      const { blob, name } = await attachmentBlob(a);
      const form = new FormData();
      form.set("chat_id", room.external_id);
      form.set(field, blob, name);
      // One caption, on the first attachment that takes one (stickers do not).
      if (caption && a.type !== "sticker") {
        form.set("caption", caption.slice(0, 1024));
        caption = caption.length > 1024 ? caption.slice(1024) : undefined;
      }
      if (keyboard && !caption && i === message.attachments.length - 1) form.set("reply_markup", JSON.stringify(keyboard));
      const sent = await tgCall<{ message_id: number }>(token, method, form);
      ids.push(String(sent.message_id));
    }
    if (caption) {
      const sent = await tgCall<{ message_id: number }>(token, "sendMessage", { chat_id: room.external_id, text: caption, ...(keyboard ? { reply_markup: keyboard } : {}) });
      ids.push(String(sent.message_id));
    }
    return { externalId: ids[0] };
  },
  async typing(connection, room) {
    await tgCall(connection.secrets.token, "sendChatAction", { chat_id: room.external_id, action: "typing" });
  },
};

const graphAdapter: LiveChannelAdapter<ConnectInputOf<"messenger" | "instagram">> = {
  accountField: "page_id",
  /**
   * The business's own Meta app: nothing to call at connect time (the subscription handshake
   * proves the setup), and the URL is pasted into Meta's dashboard by hand.
   */
  async verify(input) {
    return { externalId: input.page_id, name: "", secrets: { token: input.access_token, app_secret: input.app_secret, verify_token: input.verify_token } };
  },
  async send(connection, room, message) {
    const token = connection.secrets.token;
    const ids: string[] = [];
    // Suggestion buttons ride on the last message sent (quick replies show under the newest one).
    const quick = graphQuickReplies(message.suggestions);
    const last = message.attachments.length - 1;
    if (message.body) {
      const text = { text: message.body.slice(0, 2000), ...(quick && last < 0 ? { quick_replies: quick } : {}) };
      ids.push(await graphSend(token, { recipient: { id: room.external_id }, messaging_type: "RESPONSE", message: text }));
    }
    for (const [i, a] of message.attachments.entries()) {
      const { blob, name } = await attachmentBlob(a);
      const form = new FormData();
      form.set("recipient", JSON.stringify({ id: room.external_id }));
      form.set("messaging_type", "RESPONSE");
      form.set("message", JSON.stringify({ attachment: { type: GRAPH_TYPE[a.type], payload: { is_reusable: true } }, ...(quick && i === last ? { quick_replies: quick } : {}) }));
      form.set("filedata", blob, name);
      ids.push(await graphSend(token, form));
    }
    if (ids.length === 0) throw new ProviderError("empty message", true);
    return { externalId: ids[0] };
  },
  async typing(connection, room) {
    await graphAction(connection.secrets.token, room.external_id, "typing_on");
  },
  async seen(connection, room) {
    await graphAction(connection.secrets.token, room.external_id, "mark_seen");
  },
};

/**
 * Business Messages: the text, then each attachment — an image by our signed URL (Google fetches
 * it), any other file as a text with its signed link — each a message of its own, as a HUMAN
 * representative with the agent's name. The messageIds derive from our message id, so a retry
 * sends nothing twice.
 */
const googleBusinessAdapter: LiveChannelAdapter<ConnectInputOf<"google_business">> = {
  accountField: "agent_id",
  /** No Google call at connect time (the first reply proves the key); its private key must be a usable RSA key. */
  async verify(input) {
    return { externalId: input.agent_id, name: "", secrets: { token: input.client_token, service_account: serviceAccount(input.service_account_key) } };
  },
  async send(connection, room, message) {
    const key = connection.secrets.service_account;
    if (!key) throw new ProviderError("google business messages: the connection has no service account", true);
    const base = env().APP_URL.replace(/\/+$/, "");
    const parts: Array<Record<string, unknown>> = [];
    if (message.body) parts.push({ text: message.body.slice(0, GBM_TEXT_MAX) });
    for (const a of message.attachments) {
      const id = fileIdOf(a.uri);
      if (!id) throw new ProviderError(`attachment ${a.uri} is not stored here`, true);
      if (a.type === "image") parts.push({ image: { contentInfo: { fileUrl: signedFileUrl(id, GBM_IMAGE_URL_TTL, base), forceRefresh: false } } });
      else parts.push({ text: `${a.name}: ${signedFileUrl(id, GBM_LINK_TTL, base)}` });
    }
    if (parts.length === 0) throw new ProviderError("empty message", true);
    const displayName = await agentName(message.user_id);
    const representative = { representativeType: "HUMAN", ...(displayName ? { displayName } : {}) };
    const suggestions = gbmSuggestions(message.suggestions);
    for (const [i, part] of parts.entries()) {
      const offer = suggestions && i === parts.length - 1 ? { suggestions } : {};
      await gbmCreate(key, room.external_id, { messageId: gbmMessageId(message.id, i), representative, ...part, ...offer });
    }
    return { externalId: message.id };
  },
  /** conversations.messages.updateReceipt: READ on the newest message read. */
  async seen(connection, room, lastMessageId) {
    const key = connection.secrets.service_account;
    if (!key || !lastMessageId) return;
    await gbmSignal(key, "PATCH", `/v1/conversations/${encodeURIComponent(room.external_id)}/messages/${encodeURIComponent(lastMessageId)}/receipt`, { receiptType: "READ" });
  },
  /** conversations/{id}/events TYPING_STARTED (each event with an id of its own). */
  async typing(connection, room) {
    const key = connection.secrets.service_account;
    if (!key) return;
    await gbmSignal(key, "POST", `/v1/conversations/${encodeURIComponent(room.external_id)}/events?eventId=${randomUUID()}`, {
      eventType: "TYPING_STARTED",
      representative: { representativeType: "HUMAN" },
    });
  },
};

/** The key of the connect form, its private key checked to be a usable RSA key (the schema checks only its shape). */
function serviceAccount(raw: string): ServiceAccountKey {
  const read = readServiceAccountKey(raw);
  if ("error" in read) throw refused("service_account_key", read.error);
  try {
    if (createPrivateKey(read.key.private_key).asymmetricKeyType !== "rsa") throw new Error("not RSA");
  } catch {
    throw refused("service_account_key", "channels.errors.keyField::private_key");
  }
  return read.key;
}

/** Every connectable channel has its adapter (the type makes a new one in CONNECTABLE need one here). */
const CHANNEL_ADAPTERS: { [C in ConnectableChannel]: LiveChannelAdapter<ConnectInputOf<C>> } = {
  telegram: telegramAdapter,
  messenger: graphAdapter,
  instagram: graphAdapter,
  google_business: googleBusinessAdapter,
};

/** The adapter of a channel a business connects (the connect form's). */
export function channelAdapter<C extends ConnectableChannel>(channel: C): LiveChannelAdapter<ConnectInputOf<C>> {
  return CHANNEL_ADAPTERS[channel];
}

/** The adapters of the connectable channels (api/live/messaging.ts adds the other channels' to the registry). */
export const CONNECTABLE_ADAPTERS: { readonly [C in ConnectableChannel]: LiveMessaging } = CHANNEL_ADAPTERS;
