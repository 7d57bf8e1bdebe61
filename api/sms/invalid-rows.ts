/**
 * The report of a CSV-file send's invalid rows (line of the file, the phone or address cell as
 * written, why it was not sent) as a CSV download, in the reader's language: the web's "Invalid
 * rows" link (/sms/campaigns/{id}/invalid-rows, /sms/send/success, /mail/campaigns/{id}/invalid-rows)
 * and GET /api/sms/campaigns/{id}/invalid_rows, GET /api/email/campaigns/{id}/invalid_rows.
 * The rows come from campaign_invalid_rows in keyset batches, so a million-row report streams in
 * constant memory. A cell a spreadsheet would run as a formula gets a leading apostrophe (as in
 * the history export, ADR 009).
 */
import type { SignedInCtx } from "../lib/context";
import { AppError } from "../lib/errors";
import { translate } from "../lib/i18n";
import { UUID } from "../lib/owned";
import { can } from "../policy/policy";
import type { InvalidRowReason } from "./recipients-file";
import { rows } from "../lib/sql";

const BATCH = 5_000;

const csvField = (v: string) => (/[",\r\n]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v);
const csvLine = (fields: string[]) => fields.map(csvField).join(",") + "\r\n";
/** CSV injection: = + - @ tab or CR first is shown as text. */
const asText = (v: string) => (/^[=+\-@\t\r]/.test(v) ? `'${v}` : v);

export type InvalidRowsReport = { filename: string; rows: number; body: AsyncIterable<string> };

/** The campaign's invalid rows as CSV text chunks (with a byte-order mark), or NOT_FOUND for another account's campaign. */
export async function invalidRowsReport(ctx: SignedInCtx, campaignId: string, locale: string, channel: "sms" | "email" | "rcs" = "sms"): Promise<InvalidRowsReport> {
  if (!can(ctx.actor, channel === "email" ? "/mail/campaigns" : `/${channel}/campaigns`)) throw new AppError("FORBIDDEN");
  if (!UUID.test(campaignId)) throw new AppError("NOT_FOUND");
  const accountId = ctx.actor.accountId;
  const [campaign] = await rows<{ id: string; rows: number }>(
    `SELECT c.id, (SELECT count(*)::int FROM campaign_invalid_rows r WHERE r.campaign_id = c.id) AS rows
       FROM campaigns c WHERE c.id = $1 AND c.account_id = $2 AND c.channel = $3`,
    [campaignId, accountId, channel],
  );
  if (!campaign) throw new AppError("NOT_FOUND");
  const t = (key: string) => translate(locale, key);
  const reasons: Record<InvalidRowReason, string> = {
    empty: t(channel === "email" ? "sms:invalidRows.reasons.empty_email" : "sms:invalidRows.reasons.empty"),
    invalid_phone: t("sms:invalidRows.reasons.invalid_phone"),
    invalid_email: t("sms:invalidRows.reasons.invalid_email"),
  };
  async function* body() {
    yield "\uFEFF" + csvLine([t("sms:invalidRows.columns.line"), t("sms:invalidRows.columns.value"), t("sms:invalidRows.columns.reason")]);
    let after = 0;
    for (;;) {
      const found = await rows<{ line: string; value: string; reason: InvalidRowReason }>(
        `SELECT line, value, reason FROM campaign_invalid_rows WHERE campaign_id = $1 AND account_id = $2 AND line > $3 ORDER BY line LIMIT ${BATCH}`,
        [campaignId, accountId, after],
      );
      if (found.length === 0) return;
      yield found.map((r) => csvLine([r.line, asText(r.value), reasons[r.reason] ?? r.reason])).join("");
      after = Number(found[found.length - 1].line);
      if (found.length < BATCH) return;
    }
  }
  return { filename: `invalid-rows-${campaign.id.slice(0, 8)}.csv`, rows: campaign.rows, body: body() };
}

/** The report as a Response body (UTF-8 bytes, pulled as the client reads). */
export function reportStream(report: InvalidRowsReport): ReadableStream<Uint8Array> {
  const it = report.body[Symbol.asyncIterator]();
  const enc = new TextEncoder();
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      const { value, done } = await it.next();
      if (done) controller.close();
      else controller.enqueue(enc.encode(value));
    },
    async cancel() {
      await it.return?.();
    },
  });
}

export const invalidRowsHeaders = (report: InvalidRowsReport) => ({
  "Content-Type": "text/csv; charset=utf-8",
  "Content-Disposition": `attachment; filename="${report.filename}"`,
  "Cache-Control": "no-store",
});
