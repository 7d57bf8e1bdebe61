/**
 * Transactional e-mail: the message is written to outbound_emails inside the caller's
 * transaction (nothing is sent for work that rolls back), then announced on the mail stream
 * after commit. The worker delivers it (api/mail/deliver.ts).
 */
import { OutboundEmail, type Locale } from "../../models";
import type { Ctx } from "../lib/context";
import { env } from "../lib/env";
import { translate } from "../lib/i18n";
import { publishJob } from "../jobs/publish";

export const MAIL_STREAM = "jobs:mail";

export type MailTemplate =
  | "verifyEmail"
  | "resetPassword"
  | "registerExisting"
  | "invitation"
  | "welcomeTrial"
  | "ticketOpened"
  | "ticketAnswered"
  | "ticketReplied"
  | "ticketClosed";

/** What a template's texts may name besides the person and the link (a ticket's number and subject…). */
type MailParams = { name?: string; account?: string; brand?: string; number?: string; subject?: string };

function escapeHtml(s: string) {
  return s.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);
}

export function renderMail(locale: Locale, template: MailTemplate, params: MailParams & { link: string }) {
  const p = { ...params, brand: params.brand ?? "Mensageria" };
  const subject = translate(locale, `mail:${template}.subject`, p);
  const lines = [translate(locale, "mail:greeting", p), translate(locale, `mail:${template}.body`, p)];
  const action = translate(locale, `mail:${template}.action`, p);
  const footer = translate(locale, "mail:footer", p);
  const text = `${lines.join("\n\n")}\n\n${action}: ${p.link}\n\n${footer}`;
  const html = `<!doctype html><html lang="${locale}"><body style="font-family:system-ui,sans-serif;line-height:1.5">${lines
    .map((l) => `<p>${escapeHtml(l)}</p>`)
    .join(
      "",
    )}<p><a href="${escapeHtml(p.link)}" style="display:inline-block;padding:10px 16px;background:#0f766e;color:#fff;border-radius:6px;text-decoration:none">${escapeHtml(action)}</a></p><p style="color:#666;font-size:12px">${escapeHtml(footer)}</p></body></html>`;
  return { subject, text, html };
}

export async function enqueueMail(ctx: Ctx, to: string, locale: Locale, template: MailTemplate, params: MailParams & { path: string }) {
  const link = new URL(params.path, env().APP_URL).toString();
  const { subject, text, html } = renderMail(locale, template, { ...params, name: params.name || to.split("@")[0], link });
  const row = await OutboundEmail.create({ toAddress: to, subject, html, textBody: text, accountId: ctx.actor?.accountId ?? null }, { transaction: ctx.transaction });
  const announce = () => publishJob(MAIL_STREAM, row.id, { id: row.id }).then(() => undefined);
  if (ctx.transaction) ctx.transaction.afterCommit(() => void announce().catch((e) => console.error("mail announce failed", e)));
  else await announce();
  return row;
}
