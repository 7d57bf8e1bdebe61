/** Showing an e-mail safely: HTML inside a sandboxed frame (links open in a new tab), text with clickable links. */
import { useTranslation } from "~/lib/react-i18n";
import { Card, CardContent, CardHeader, CardTitle } from "~/components/ui/card";

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

/**
 * An e-mail's HTML in a sandboxed frame (scripts never run; links open outside) and its text with
 * clickable links, each in a card: /dev/mailbox/{id} and /dev/mailbox/email/{id}.
 */
export function MailBodyCards({ subject, html, text, textTestId }: { subject: string; html: string | null; text: string | null; textTestId: string }) {
  const { t } = useTranslation("admin");
  return (
    <>
      {html ? (
        <Card>
          <CardHeader>
            <CardTitle>{t("mailbox.html")}</CardTitle>
          </CardHeader>
          <CardContent>
            <iframe
              title={t("mailbox.htmlFrame", { subject })}
              srcDoc={mailFrameDocument(html)}
              sandbox="allow-popups allow-popups-to-escape-sandbox"
              referrerPolicy="no-referrer"
              className="h-[28rem] w-full rounded-md border bg-white"
            />
          </CardContent>
        </Card>
      ) : null}
      {text ? (
        <Card>
          <CardHeader>
            <CardTitle>{t("mailbox.text")}</CardTitle>
          </CardHeader>
          <CardContent>
            <pre className="overflow-x-auto whitespace-pre-wrap break-words rounded-md bg-muted p-4 text-sm" data-testid={textTestId}>
              <LinkifiedText text={text} />
            </pre>
          </CardContent>
        </Card>
      ) : null}
    </>
  );
}
