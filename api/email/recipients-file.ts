/**
 * A CSV file of e-mail recipients (/mail/send "file" mode, POST /api/email/campaigns multipart):
 * the SMS file send's reader (api/sms/recipients-file.ts stageFile) with an address column —
 * csv-parse, delimiter , or ; from the first line, UTF-8 or Latin-1, streamed while it arrives and
 * COPYed into the staging table sms_send_rows (the recipient column holds the address, lower case;
 * the other columns are the row's {{variables}} by header name), at most MAX_FILE_ROWS rows. The
 * accept transaction (./campaigns.ts) expands the batch set-based and removes it.
 *
 * The address column: the first whose header is email / e-mail / mail / correio… ; otherwise the
 * first column whose value in the first data row is an address. A file with none is refused naming
 * the field (`file`: "No column with e-mail addresses was found"). Rows whose cell is empty or not an
 * address are counted (`invalid`), kept with their reason (`empty`, `invalid_email`) and not sent.
 */
import type { SignedInCtx } from "../lib/context";
import type { StagedFile } from "../sms/accept";
import { dropStagedFile, type RecipientColumn, stageFile, stageStream } from "../sms/recipients-file";

const EMAIL_HEADERS = new Set(["email", "e_mail", "mail", "email_address", "endereco_de_email", "endereco_email", "correio", "correo", "correo_electronico", "emails"]);
const ADDRESS = /^[^\s@"<>(),;:\\[\]]{1,64}@[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)+$/;

/** The cell as an address (trimmed, lower case), or null. */
export function emailCell(cell: string): string | null {
  const a = cell.trim().toLowerCase();
  return a.length <= 254 && ADDRESS.test(a) ? a : null;
}

export const EMAIL_COLUMN: RecipientColumn = {
  session: "mensageria-email-file",
  headers: EMAIL_HEADERS,
  recipient: emailCell,
  isData: (c) => emailCell(c) !== null,
  invalid: "invalid_email",
  errors: { noColumn: "emailCampaigns.errors.fileNoEmailColumn", noRecipients: "emailCampaigns.errors.noRecipients" },
};

/** Reads the uploaded files (the first one is used) and stages its recipients; the caller accepts the batch or drops it. */
export function stageEmailFile(ctx: SignedInCtx, files: AsyncIterable<{ name: string; stream: ReadableStream<Uint8Array> }>): Promise<StagedFile> {
  return stageFile(ctx, files, "/mail/send", EMAIL_COLUMN);
}

export function stageEmailStream(name: string, stream: ReadableStream<Uint8Array>): Promise<StagedFile> {
  return stageStream(name, stream, EMAIL_COLUMN);
}

/** Remove a staged batch that was not accepted (validation error, insufficient balance…). */
export const dropStagedEmailFile = dropStagedFile;
