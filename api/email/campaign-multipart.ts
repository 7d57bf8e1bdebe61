/**
 * POST /api/email/campaigns as multipart/form-data: a `file` part (CSV of recipients, staged while
 * it arrives by ./recipients-file.ts) and the JSON body's fields as plain parts (name, from,
 * from_name, reply_to, subject, html, text, scheduled_at). Then the one accept use-case, with the
 * Idempotency-Key. A refused request leaves nothing staged.
 */
import { MultipartReader } from "../imports/multipart";
import type { SignedInCtx } from "../lib/context";
import { AppError } from "../lib/errors";
import type { StagedFile } from "../sms/accept";
import { acceptEmailCampaign, type EmailCampaignAnswer } from "./campaigns";
import { dropStagedEmailFile, stageEmailFile } from "./recipients-file";

const TEXT_FIELDS = new Set(["name", "from", "from_name", "reply_to", "subject", "html", "text", "scheduled_at"]);
async function* one<T>(item: T) {
  yield item;
}

export async function acceptEmailCampaignMultipart(
  ctx: SignedInCtx,
  body: ReadableStream<Uint8Array>,
  boundary: string,
  idempotencyKey: string | null,
): Promise<EmailCampaignAnswer> {
  const reader = new MultipartReader(body, boundary);
  const input: Record<string, unknown> = {};
  let staged: StagedFile | null = null;
  try {
    for await (const part of reader.parts()) {
      if (part.kind === "file") {
        if (part.field !== "file" || staged) continue;
        staged = await stageEmailFile(ctx, one({ name: part.name, stream: part.stream }));
        continue;
      }
      if (TEXT_FIELDS.has(part.field) && part.value !== "") input[part.field] = part.value;
    }
    if (!staged) throw new AppError("VALIDATION", { fields: { file: ["validation.required"] } });
    return await acceptEmailCampaign(ctx, input, { idempotencyKey, file: staged });
  } catch (e) {
    await reader.drain().catch(() => undefined);
    throw e;
  } finally {
    await dropStagedEmailFile(staged).catch(() => undefined);
  }
}
