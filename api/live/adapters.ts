/**
 * The live chat channels' transports (ADR 017), behind one contract: `send` an agent's message
 * (text and attachments) to a visitor and answer the provider's message id. The outbound worker
 * (./outbound) speaks only this contract and picks the adapter from the registry by the room's
 * channel; no other code branches on the channel. Each speaks the provider's real API at a base
 * URL from the environment (TELEGRAM_API_URL, GRAPH_API_URL) so tests use a loopback peer.
 *
 * Errors: a ProviderError is permanent (4xx other than 408/429: retrying cannot help, the message
 * fails at once) or transient (5xx, 429, network: the worker retries, then fails it).
 */
import { env } from "../lib/env";
import type { Attachment, LiveMessage, Room } from "./rooms";
import { fileBytes, fileIdOf } from "./uploads";
import type { ConnectionWithSecrets } from "./connections";

const TIMEOUT_MS = 15_000;

export class ProviderError extends Error {
  constructor(message: string, readonly permanent: boolean, readonly status?: number) {
    super(message);
    this.name = "ProviderError";
  }
}

const permanentStatus = (status: number) => status >= 400 && status < 500 && status !== 408 && status !== 429;

async function request(url: string, init: RequestInit): Promise<{ status: number; json: any }> {
  let res: Response;
  try {
    res = await fetch(url, { ...init, signal: AbortSignal.timeout(TIMEOUT_MS) });
  } catch (e) {
    throw new ProviderError(`network: ${(e as Error).message}`, false);
  }
  const text = await res.text();
  let json: any = null;
  try {
    json = JSON.parse(text);
  } catch {
    json = null;
  }
  return { status: res.status, json: json ?? { raw: text.slice(0, 300) } };
}

/** Downloads a file the provider hosts, refusing more than `maxBytes` (read no further than that). */
export async function download(url: string, maxBytes: number): Promise<{ bytes: Uint8Array; tooLarge: boolean }> {
  const res = await fetch(url, { signal: AbortSignal.timeout(TIMEOUT_MS * 2) });
  if (!res.ok || !res.body) throw new ProviderError(`download answered ${res.status}`, permanentStatus(res.status), res.status);
  const declared = Number(res.headers.get("Content-Length") ?? NaN);
  if (Number.isFinite(declared) && declared > maxBytes) {
    await res.body.cancel();
    return { bytes: new Uint8Array(), tooLarge: true };
  }
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
    size += chunk.byteLength;
    if (size > maxBytes) return { bytes: new Uint8Array(), tooLarge: true };
    chunks.push(chunk);
  }
  return { bytes: new Uint8Array(Buffer.concat(chunks)), tooLarge: false };
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

async function tgCall<T = any>(token: string, method: string, body: Record<string, unknown> | FormData): Promise<T> {
  const init: RequestInit =
    body instanceof FormData ? { method: "POST", body } : { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) };
  const { status, json } = await request(tgUrl(token, method), init);
  if (status >= 200 && status < 300 && json?.ok) return json.result as T;
  const reason = `telegram ${method}: ${status} ${json?.description ?? json?.raw ?? ""}`.trim();
  throw new ProviderError(reason, permanentStatus(status), status);
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
  setWebhook: (token: string, url: string, secret: string) =>
    tgCall(token, "setWebhook", { url, secret_token: secret, allowed_updates: ["message"], drop_pending_updates: false }),
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

const GRAPH_TYPE: Record<Attachment["type"], string> = { image: "image", sticker: "image", audio: "audio", video: "video", document: "file" };

async function graphSend(token: string, body: Record<string, unknown> | FormData): Promise<string> {
  const url = `${env().GRAPH_API_URL.replace(/\/+$/, "")}/me/messages?access_token=${encodeURIComponent(token)}`;
  const init: RequestInit =
    body instanceof FormData ? { method: "POST", body } : { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) };
  const { status, json } = await request(url, init);
  if (status >= 200 && status < 300 && json?.message_id) return String(json.message_id);
  const reason = `graph /me/messages: ${status} ${json?.error?.message ?? json?.raw ?? ""}`.trim();
  throw new ProviderError(reason, permanentStatus(status), status);
}

// ---- the contract ----------------------------------------------------------------------------------

export type SentResult = { externalId: string };

export interface LiveChannelAdapter {
  /** Sends the agent's message to the room's visitor; answers the provider's message id (the first one when it took several calls). */
  send(connection: ConnectionWithSecrets, room: Room, message: LiveMessage): Promise<SentResult>;
}

const telegramAdapter: LiveChannelAdapter = {
  async send(connection, room, message) {
    const token = connection.secrets.token;
    const ids: string[] = [];
    let caption: string | undefined = message.body || undefined;
    for (const a of message.attachments) {
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
      const sent = await tgCall<{ message_id: number }>(token, method, form);
      ids.push(String(sent.message_id));
    }
    if (caption) {
      const sent = await tgCall<{ message_id: number }>(token, "sendMessage", { chat_id: room.external_id, text: caption });
      ids.push(String(sent.message_id));
    }
    return { externalId: ids[0] };
  },
};

const graphAdapter: LiveChannelAdapter = {
  async send(connection, room, message) {
    const token = connection.secrets.token;
    const ids: string[] = [];
    if (message.body) {
      ids.push(await graphSend(token, { recipient: { id: room.external_id }, messaging_type: "RESPONSE", message: { text: message.body.slice(0, 2000) } }));
    }
    for (const a of message.attachments) {
      const { blob, name } = await attachmentBlob(a);
      const form = new FormData();
      form.set("recipient", JSON.stringify({ id: room.external_id }));
      form.set("messaging_type", "RESPONSE");
      form.set("message", JSON.stringify({ attachment: { type: GRAPH_TYPE[a.type], payload: { is_reusable: true } } }));
      form.set("filedata", blob, name);
      ids.push(await graphSend(token, form));
    }
    if (ids.length === 0) throw new ProviderError("empty message", true);
    return { externalId: ids[0] };
  },
};

/** The registry: the room's channel picks the adapter. */
export const LIVE_ADAPTERS: Partial<Record<Room["channel"], LiveChannelAdapter>> = {
  telegram: telegramAdapter,
  messenger: graphAdapter,
  instagram: graphAdapter,
};
