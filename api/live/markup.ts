/**
 * Live chat text markup (spec section 5): the text is HTML-escaped first, then links are
 * auto-linked (shown truncated to 50 characters), then _italic_, *bold*, ~strike~ and ```code```.
 * Pure and dependency-free: the embeddable widget (public-src/widget) bundles it, and the agents'
 * screens may use it too. Returns an HTML string that is safe to assign to innerHTML.
 */

export const LINK_DISPLAY_MAX = 50;

const ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };
export const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => ESCAPES[c]);

/** A link's text as shown: at most 50 characters, with an ellipsis when cut. */
export function truncateLink(url: string, max = LINK_DISPLAY_MAX): string {
  return url.length > max ? `${url.slice(0, max - 1)}…` : url;
}

// http(s)://… or www.…, stopping at spaces, quotes and angle brackets, and before trailing punctuation.
const URL_RE = /((?:https?:\/\/|www\.)[^\s<>"'`]*[^\s<>"'`.,;:!?)\]])/i;

function link(raw: string): string {
  const href = /^www\./i.test(raw) ? `https://${raw}` : raw;
  return `<a href="${escapeHtml(href)}" target="_blank" rel="noopener noreferrer nofollow">${escapeHtml(truncateLink(raw))}</a>`;
}

/** Emphasis on escaped text. Markers must hug a word: "2 * 3 * 4" and snake_case stay as they are. */
const emphasis = (escaped: string) =>
  escaped
    .replace(/(^|[^\w*])\*(?=\S)([^*\n]*?\S)\*(?![\w*])/g, "$1<strong>$2</strong>")
    .replace(/(^|[^\w_])_(?=\S)([^_\n]*?\S)_(?![\w_])/g, "$1<em>$2</em>")
    .replace(/(^|[^\w~])~(?=\S)([^~\n]*?\S)~(?![\w~])/g, "$1<del>$2</del>")
    .replace(/\n/g, "<br>");

/** Raw text without code blocks: links (from the raw text) and emphasis (on the escaped rest). */
function inline(raw: string): string {
  return raw
    .split(new RegExp(URL_RE.source, "gi"))
    .map((part, i) => (i % 2 === 1 ? link(part) : emphasis(escapeHtml(part))))
    .join("");
}

/** Renders a live chat message's text as safe HTML with the live chat markup. */
export function renderMarkup(text: string): string {
  const parts = text.split(/```/);
  // An odd count of fences leaves the last one unclosed: it is text.
  if (parts.length % 2 === 0) parts[parts.length - 2] += "```" + parts.pop();
  return parts.map((p, i) => (i % 2 === 1 ? `<pre><code>${escapeHtml(p.replace(/^\n|\n$/g, ""))}</code></pre>` : inline(p))).join("");
}
