/**
 * Deliver one outbound e-mail: over SMTP when SMTP_URL is configured, otherwise it stays in
 * the local outbox (status "local", shown at /dev/mailbox). Idempotent: only a queued row is
 * claimed, so a redelivered job never sends twice once the first attempt was recorded.
 */
import nodemailer, { type Transporter } from "nodemailer";
import { OutboundEmail } from "../../models";
import { env } from "../lib/env";
import { rows } from "../lib/sql";

let transport: Transporter | undefined;
function smtp() {
  transport ??= nodemailer.createTransport(env().SMTP_URL!);
  return transport;
}

export async function deliverMail(id: string) {
  const found = await rows<{ id: string }>(`UPDATE outbound_emails SET attempts = attempts + 1, updated_at = now() WHERE id = $1 AND status = 'queued' RETURNING id`, [id]);
  if (!found.length) return; // already delivered (or unknown): nothing to do
  const mail = await OutboundEmail.findByPk(id);
  if (!mail) return;
  if (!env().SMTP_URL) {
    await mail.update({ status: "local", sentAt: new Date() });
    return;
  }
  try {
    await smtp().sendMail({ from: env().MAIL_FROM, to: mail.toAddress, subject: mail.subject, text: mail.textBody, html: mail.html, messageId: `<${mail.id}@mensageria>` });
    await mail.update({ status: "sent", sentAt: new Date(), error: null });
  } catch (e) {
    const failedForGood = mail.attempts >= 5;
    await mail.update({ status: failedForGood ? "failed" : "queued", error: e instanceof Error ? e.message : String(e) });
    if (!failedForGood) throw e; // the job runner retries it
  }
}

/** Rows still queued after a while (their announcement was lost): announce them again. */
export async function sweepQueuedMail(announce: (id: string) => Promise<unknown>) {
  const found = await rows<{ id: string }>(`SELECT id FROM outbound_emails WHERE status = 'queued' AND updated_at < now() - interval '30 seconds' ORDER BY created_at LIMIT 500`);
  for (const r of found) await announce(r.id);
  return found.length;
}
