import { Link } from "@remix-run/react";
import { useTranslation } from "~/lib/react-i18n";

type Mail = { subject: string; links: string[] };

/**
 * Outside production, on the page after a registration: the verification e-mail the outbox wrote
 * to the new person (there is no SMTP server on a fresh machine), with its links to follow, and the
 * way to this browser's own development mailbox (/dev/mailbox, ~/lib/registrant.server).
 */
export function DevMail({ mail }: { mail: Mail | null }) {
  const { t } = useTranslation("auth");
  if (!mail) return null;
  return (
    <section className="mt-6 space-y-2 rounded-md border border-dashed p-4 text-left text-sm" data-testid="dev-mail" aria-labelledby="dev-mail-title">
      <h2 id="dev-mail-title" className="font-medium">
        {t("devMail.title")}
      </h2>
      <p className="text-muted-foreground">{t("devMail.body")}</p>
      <p>
        <span className="text-muted-foreground">{t("devMail.subject")}:</span> {mail.subject}
      </p>
      <ul className="space-y-1">
        {mail.links.map((l) => (
          <li key={l}>
            <a href={new URL(l).pathname} className="break-all text-primary underline">
              {l}
            </a>
          </li>
        ))}
      </ul>
      <p>
        <Link to="/dev/mailbox" className="text-primary underline" data-testid="dev-mailbox-link">
          {t("devMail.mailbox")}
        </Link>
      </p>
    </section>
  );
}
