/**
 * Live chat text markup (spec section 5): _italic_, *bold*, ~strike~ and ```code```, the text
 * HTML-escaped, links auto-linked and shown truncated to 50 characters. Pure and framework-free:
 * the agent workspace renders its output with dangerouslySetInnerHTML and the widget (public/)
 * shares it, so whatever a visitor types can never become markup of its own.
 */

/** Longest link text shown; longer links end in an ellipsis (the href keeps the whole URL). */
export const LINK_TEXT_MAX = 50;

const ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ESCAPES[c]);
}

/** http(s):// or www. up to whitespace; trailing punctuation stays outside the link. */
const URL_RE = /\b(?:https?:\/\/|www\.)[^\s<>"']+/gi;
const TRAILING = /[.,;:!?)\]}]+$/;

export function linkText(url: string): string {
  return url.length > LINK_TEXT_MAX ? `${url.slice(0, LINK_TEXT_MAX)}…` : url;
}

function link(raw: string): string {
  const href = /^www\./i.test(raw) ? `http://${raw}` : raw;
  return `<a href="${escapeHtml(href)}" target="_blank" rel="noopener noreferrer nofollow">${escapeHtml(linkText(raw))}</a>`;
}

/**
 * One marker pair: opens after a start, a space or punctuation, closes before an end, a space or
 * punctuation, and never hugs a space (so "2 * 3 * 4" and snake_case_words stay as they are).
 */
function inline(escaped: string, marker: string, tag: string): string {
  const m = marker === "*" ? "\\*" : marker;
  const re = new RegExp(`(^|[\\s(>;.,:!?])${m}(?!\\s)((?:(?!${m}).)*?\\S)${m}(?=$|[\\s)<&.,;:!?])`, "gmu");
  return escaped.replace(re, (_all, before: string, inner: string) => `${before}<${tag}>${inner}</${tag}>`);
}

function formatText(raw: string): string {
  let html = escapeHtml(raw);
  html = inline(html, "*", "strong");
  html = inline(html, "_", "em");
  html = inline(html, "~", "s");
  return html;
}

/** Text outside code: links kept whole, the rest escaped and formatted, newlines as <br>. */
function renderText(raw: string): string {
  let out = "";
  let last = 0;
  for (const match of raw.matchAll(URL_RE)) {
    let url = match[0];
    const trail = url.match(TRAILING)?.[0] ?? "";
    if (trail) url = url.slice(0, -trail.length);
    if (!url || /^(https?:\/\/|www\.)$/i.test(url)) continue;
    out += formatText(raw.slice(last, match.index)) + link(url);
    last = match.index! + url.length;
  }
  out += formatText(raw.slice(last));
  return out.replace(/\r?\n/g, "<br>");
}

/** The message as safe HTML. */
export function renderMarkup(text: string | null | undefined): string {
  if (!text) return "";
  let out = "";
  let last = 0;
  const code = /```([\s\S]*?)```/g;
  for (const match of text.matchAll(code)) {
    const inner = match[1];
    out += renderText(text.slice(last, match.index));
    const body = escapeHtml(inner.replace(/^\r?\n/, "").replace(/\r?\n$/, ""));
    out += /\n/.test(inner.trim()) ? `<pre><code>${body}</code></pre>` : `<code>${body}</code>`;
    last = match.index! + match[0].length;
  }
  out += renderText(text.slice(last));
  return out;
}
