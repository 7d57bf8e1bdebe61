/** What the platform tells people: in-app notifications and the e-mail outbox. */
import { type Query, type SqlExpression, given, insertRow, runDb } from "./sql";

/** An in-app notification for the account (userId null: for everyone in it). Answers its id (a number). */
export async function makeNotification(
  accountId: string,
  fields: { userId?: string | null; kind?: string; params?: Record<string, unknown> } = {},
  q: Query = runDb,
): Promise<number> {
  const row = await insertRow("notifications", { accountId, userId: null, kind: "test.note", ...given(fields) }, "id", q);
  return Number(row.id);
}

export type OutboundEmailFields = {
  accountId?: string | null;
  toAddress?: string;
  subject?: string;
  html?: string;
  textBody?: string;
  status?: string;
  createdAt?: Date | SqlExpression;
  updatedAt?: Date | SqlExpression;
};

/** An e-mail in the outbox, as the mailer writes it (status "local": shown in /dev/mailbox, never sent). */
export async function makeOutboundEmail(fields: OutboundEmailFields = {}, q: Query = runDb): Promise<string> {
  const row = { toAddress: "someone@test.example", subject: "Teste", html: "<p>x</p>", textBody: "x", status: "local", ...given(fields) };
  return (await insertRow("outbound_emails", row, "id", q)).id;
}
