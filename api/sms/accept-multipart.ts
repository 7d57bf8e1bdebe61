/**
 * POST /api/sms/messages as multipart/form-data: a `file` part (CSV of recipients) and the JSON
 * body's fields as plain parts (from, body, template_id, route, scheduled_at, campaign_name, and
 * `variables` as a JSON object or as `variables[name]` parts). The file is staged while it
 * arrives by the same streaming code as the web form (api/sms/recipients-file.ts), then the one
 * accept use-case takes it, with the Idempotency-Key. Fields may come before or after the file.
 */
import { MultipartReader } from "../imports/multipart";
import type { SignedInCtx } from "../lib/context";
import { AppError } from "../lib/errors";
import { acceptSms, type AcceptSmsAnswer, type StagedFile } from "./accept";
import { dropStagedFile, stageSmsFile } from "./recipients-file";

const TEXT_FIELDS = new Set(["from", "body", "template_id", "route", "scheduled_at", "campaign_name", "group_id", "to", "shorten_links"]);
async function* one<T>(item: T) {
  yield item;
}
const invalid = (field: string) => new AppError("VALIDATION", { fields: { [field]: ["validation.invalid"] } });

export async function acceptSmsMultipart(ctx: SignedInCtx, body: ReadableStream<Uint8Array>, boundary: string, idempotencyKey: string | null): Promise<AcceptSmsAnswer> {
  const reader = new MultipartReader(body, boundary);
  const input: Record<string, unknown> = {};
  const variables: Record<string, unknown> = {};
  let staged: StagedFile | null = null;
  try {
    for await (const part of reader.parts()) {
      if (part.kind === "file") {
        if (part.field !== "file" || staged) continue; // other file parts are skipped unread
        staged = await stageSmsFile(ctx, one({ name: part.name, stream: part.stream }));
        continue;
      }
      const named = /^variables(?:\[([^\]]+)\]|\.(.+))$/.exec(part.field);
      if (named) variables[named[1] ?? named[2]] = part.value;
      else if (part.field === "variables") {
        if (!part.value.trim()) continue;
        let parsed: unknown;
        try {
          parsed = JSON.parse(part.value);
        } catch {
          throw invalid("variables");
        }
        if (!parsed || typeof parsed !== "object" || Array.isArray(parsed)) throw invalid("variables");
        Object.assign(variables, parsed);
      } else if (TEXT_FIELDS.has(part.field)) input[part.field] = part.value;
    }
    if (Object.keys(variables).length) input.variables = variables;
    if (!staged) throw new AppError("VALIDATION", { fields: { file: ["validation.required"] } });
    return await acceptSms(ctx, input, { idempotencyKey, file: staged });
  } catch (e) {
    await reader.drain().catch(() => undefined);
    throw e;
  } finally {
    // Accepted: the transaction removed the rows (this deletes nothing); refused or answered from the key: they go now.
    await dropStagedFile(staged).catch(() => undefined);
  }
}
