/** Showing an e-mail safely: HTML inside a sandboxed frame (links open in a new tab), text with clickable links. */

const LINK = /(https?:\/\/[^\s<>"']+)/g;

/** The HTML of an e-mail for <iframe srcdoc>, with `<base target="_blank">` so its links leave the frame. */
export function mailFrameDocument(html: string) {
  const base = '<base target="_blank">';
  if (/<head[^>]*>/i.test(html)) return html.replace(/<head[^>]*>/i, (m) => m + base);
  if (/<html[^>]*>/i.test(html)) return html.replace(/<html[^>]*>/i, (m) => `${m}<head>${base}</head>`);
  return `<!doctype html><html><head>${base}</head><body>${html}</body></html>`;
}

/** Plain text where every http(s) URL becomes a link (React escapes the rest). */
export function LinkifiedText({ text }: { text: string }) {
  const parts = text.split(LINK);
  return (
    <>
      {parts.map((part, i) =>
        i % 2 === 1 ? (
          <a key={i} href={part} target="_blank" rel="noreferrer" className="text-primary underline">
            {part}
          </a>
        ) : (
          part
        ),
      )}
    </>
  );
}
