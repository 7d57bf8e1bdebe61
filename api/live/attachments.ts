/**
 * Files in live conversations (ADR 017): an agent's upload (POST webchat/upload) becomes an agent
 * message with the attachment, a widget visitor's upload a visitor message; both go through the
 * room flow's use-cases (sendAgentMessage, visitorMessage) like any message. And who may download
 * a stored file: the account's attendants, the room's webchat visitor, or a signed URL's holder.
 */
import type { Actor, SignedInCtx } from "../lib/context";
import { AppError } from "../lib/errors";
import { assertId } from "../lib/owned";
import { sendAgentMessage } from "./rooms/agent-actions";
import { assertAttendant } from "./rooms/guards";
import { getRoom } from "./rooms/queries";
import type { LiveChannel } from "./rooms/types";
import { attachFilesToRoom, dropFile, findFile, maxUploadBytes, storeFile, tooLarge, validSignature, type LiveFile } from "./uploads";
import { accountForWidgetKey, admitVisitorPost, assertVisitor, webchatMessage, type WidgetCaller } from "./visitors";
import { row } from "../lib/sql";

/** Room for multipart framing and the other fields around the file. */
const FRAMING_BYTES = 64 * 1024;

/** Refuses a body that cannot fit the channel's limit before reading it. */
export function assertDeclaredSize(request: Request, channel: LiveChannel) {
  const declared = Number(request.headers.get("Content-Length") ?? NaN);
  const limit = maxUploadBytes(channel);
  if (Number.isFinite(declared) && declared > limit + FRAMING_BYTES) throw tooLarge(limit);
}

export type UploadedFile = { bytes: Uint8Array; name: string };

/** The `file` part of a multipart form (422 when missing). */
export async function fileField(form: FormData): Promise<UploadedFile> {
  const file = form.get("file");
  if (!file || typeof file === "string") throw new AppError("VALIDATION", { fields: { file: ["validation.required"] } });
  return { bytes: new Uint8Array(await file.arrayBuffer()), name: file.name || "" };
}

const str = (v: FormDataEntryValue | null) => (typeof v === "string" ? v : "");

/** The attending agent sends a file (with an optional message) to the room's visitor. */
export async function agentUpload(ctx: SignedInCtx, request: Request) {
  assertAttendant(ctx);
  // With id_room also in the query, the channel's limit is checked before the body is read.
  const roomIdFirst = new URL(request.url).searchParams.get("id_room");
  if (roomIdFirst) {
    assertId(roomIdFirst);
    const r = await row<{ channel: LiveChannel }>(`SELECT channel FROM live_rooms WHERE id = $1 AND account_id = $2`, [roomIdFirst, ctx.actor.accountId]);
    if (!r) throw new AppError("NOT_FOUND");
    assertDeclaredSize(request, r.channel);
  }
  const form = await request.formData().catch(() => {
    throw new AppError("VALIDATION", { fields: { file: ["validation.required"] } });
  });
  const roomId = str(form.get("id_room")) || roomIdFirst || "";
  if (!roomId) throw new AppError("VALIDATION", { fields: { id_room: ["validation.required"] } });
  assertId(roomId);
  const room = await row<{ id: string; channel: LiveChannel; status: string; agent_id: string | null; locked: boolean }>(
    `SELECT id, channel, status, agent_id, locked FROM live_rooms WHERE id = $1 AND account_id = $2`,
    [roomId, ctx.actor.accountId],
  );
  if (!room) throw new AppError("NOT_FOUND");
  if (room.agent_id !== ctx.actor.userId) throw new AppError("FORBIDDEN");
  if (room.status !== "OPEN") throw new AppError("LIVE_ROOM_STATE");
  const file = await fileField(form);
  const stored = await storeFile({ accountId: ctx.actor.accountId, channel: room.channel, roomId: room.id, bytes: file.bytes, name: file.name });
  const { id: fileId, ...attachment } = stored;
  try {
    return await sendAgentMessage(ctx, room.id, { body: str(form.get("message")), attachments: [attachment], clientId: str(form.get("client_id")) || null });
  } catch (e) {
    await dropFile(fileId);
    throw e;
  }
}

/**
 * A widget visitor sends a file (with an optional message, and the first message's fields when it
 * has no visitor id yet): it opens or continues their conversation exactly as a text does.
 */
export async function visitorUpload(widgetKey: string, request: Request, caller: WidgetCaller) {
  const accountId = await accountForWidgetKey(widgetKey);
  assertDeclaredSize(request, "webchat");
  const form = await request.formData().catch(() => {
    throw new AppError("VALIDATION", { fields: { file: ["validation.required"] } });
  });
  const field = (name: string) => str(form.get(name)) || undefined;
  // The visitor's fields, token and allowance are checked before anything is stored.
  const post = await admitVisitorPost(
    accountId,
    {
      visitor_id: field("visitor_id"),
      visitor_token: field("visitor_token"),
      name: field("name"),
      email: field("email"),
      phone: field("phone"),
      department_id: field("department_id"),
      message: str(form.get("message")),
      client_id: field("client_id"),
    },
    caller,
  );
  const file = await fileField(form);
  const stored = await storeFile({ accountId, channel: "webchat", bytes: file.bytes, name: file.name });
  const { id: fileId, ...attachment } = stored;
  let result: Awaited<ReturnType<typeof webchatMessage>>;
  try {
    result = await webchatMessage(post, [attachment]);
  } catch (e) {
    await dropFile(fileId);
    throw e;
  }
  await attachFilesToRoom(accountId, [fileId], result.room.id);
  return result;
}

export type FileAccess = { actor?: Actor | null; exp?: string | null; sig?: string | null; widgetKey?: string | null; visitorId?: string | null; visitorToken?: string | null };

/**
 * The file, if the caller may have it: a valid signed URL; an attendant (or supervisor) of the
 * file's account who may open its room (the room's own rule, getRoom: 403 otherwise); or the
 * webchat visitor of the file's room. 401 without any credential, 404 otherwise (a file of
 * another account is not found).
 */
export async function fileForDownload(id: string, access: FileAccess): Promise<LiveFile & { path: string }> {
  const file = await findFile(id);
  if (access.exp || access.sig) {
    if (file && validSignature(id, access.exp, access.sig)) return file;
    throw new AppError("NOT_FOUND");
  }
  if (access.actor) {
    assertAttendant({ actor: access.actor });
    if (!file || file.account_id !== access.actor.accountId) throw new AppError("NOT_FOUND");
    // The file follows its room's rules (getRoom: 403 for a room the agent may not open). A file
    // without a room yet (stored a moment before its first message's room exists) has none to follow.
    if (file.room_id) await getRoom({ actor: access.actor }, file.room_id);
    return file;
  }
  if (access.widgetKey && access.visitorId && access.visitorToken) {
    const accountId = await accountForWidgetKey(access.widgetKey);
    const visitor = assertVisitor(accountId, access.visitorId, access.visitorToken);
    if (file && file.account_id === accountId && file.room_id) {
      const room = await row(`SELECT 1 FROM live_rooms WHERE id = $1 AND account_id = $2 AND channel = 'webchat' AND external_id = $3`, [
        file.room_id,
        accountId,
        visitor.visitorId,
      ]);
      if (room) return file;
    }
    throw new AppError("NOT_FOUND");
  }
  throw new AppError("UNAUTHENTICATED");
}
