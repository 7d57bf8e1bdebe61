/**
 * The content of an e-mail campaign (ADR 038): kept ONCE, on the campaign row (`campaigns.content`),
 * while each of its messages holds only what differs — the recipient, and in `messages.content`
 * the campaign id, the sending domain, the subject as written (for history) and the values of the
 * {{variables}} for that recipient. The SMTP adapter renders a message from both (renderEmail).
 * A campaign's content never changes after accept, so each process keeps the last ones it read by
 * id (a small bounded cache: correct under scale-out, nothing to invalidate).
 *
 * Rendering: `{{name}}` (api/sms/template-vars.ts syntax) becomes the recipient's value — HTML-escaped
 * in the HTML part, with control characters removed in the subject (no header injection), as is in
 * the text part. A template (another part of issue 17) plugs in here: its subject/html/text become
 * the campaign's content at accept.
 */
import { row } from "../lib/sql";
import type { EmailContent } from "./send";

/** The campaign's one copy of the content (campaigns.content). `template_id` when it came from a template. */
export type CampaignContent = EmailContent & { text: string | null; template_id?: string | null };

/** What a campaign message's own `content` holds. */
export type CampaignMessageContent = { campaign_id: string; domain: string; subject: string; vars: Record<string, string> };

const PLACEHOLDER = /\{\{\s*([A-Za-z0-9_]{1,40})\s*\}\}/g;
const CONTROL = /[\u0000-\u001f\u007f]+/g;
const HTML_ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

/** The distinct variable names used by a content's subject, HTML and text, in order of first use. */
export function contentVariables(...parts: Array<string | null | undefined>): string[] {
  const names = new Set<string>();
  for (const p of parts) for (const m of (p ?? "").matchAll(PLACEHOLDER)) names.add(m[1]);
  return [...names];
}

function fill(template: string, vars: Record<string, string>, encode: (v: string) => string): string {
  return template.replace(PLACEHOLDER, (_, name: string) => encode(vars[name] ?? ""));
}
export const renderSubject = (subject: string, vars: Record<string, string>) => fill(subject, vars, (v) => v.replace(CONTROL, " ")).replace(CONTROL, " ");
export const renderHtml = (html: string, vars: Record<string, string>) => fill(html, vars, (v) => v.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c]));
export const renderText = (text: string, vars: Record<string, string>) => fill(text, vars, (v) => v);

const CACHE_SIZE = 64;
const cache = new Map<string, CampaignContent>();

/** The campaign's content, from this process's cache or the database (null when the campaign is gone). */
export async function campaignContent(campaignId: string): Promise<CampaignContent | null> {
  const hit = cache.get(campaignId);
  if (hit) return hit;
  const found = await row<{ content: CampaignContent | null }>(`SELECT content FROM campaigns WHERE id = $1`, [campaignId]);
  if (!found?.content) return null;
  if (cache.size >= CACHE_SIZE) cache.delete(cache.keys().next().value!);
  cache.set(campaignId, found.content);
  return found.content;
}

export const isCampaignMessage = (content: unknown): content is CampaignMessageContent =>
  typeof (content as CampaignMessageContent | null)?.campaign_id === "string" && typeof (content as CampaignMessageContent).vars === "object";

/** What the adapter sends: a plain message's own content, or a campaign message rendered from its campaign's. */
export type RenderedEmail = EmailContent & { text: string | null; campaignId: string | null };

export async function renderEmail(message: { body: string; content?: unknown }): Promise<RenderedEmail | null> {
  if (!isCampaignMessage(message.content)) {
    const c = message.content as EmailContent;
    return { ...c, text: message.body || null, campaignId: null };
  }
  const own = message.content;
  const c = await campaignContent(own.campaign_id);
  if (!c) return null;
  return {
    subject: renderSubject(c.subject, own.vars),
    html: c.html ? renderHtml(c.html, own.vars) : null,
    text: c.text ? renderText(c.text, own.vars) : null,
    from_name: c.from_name,
    reply_to: c.reply_to,
    domain: c.domain,
    campaignId: own.campaign_id,
  };
}
