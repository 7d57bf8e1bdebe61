/**
 * /dev/mailbox/{id}: one e-mail of the local outbox — HTML in a sandboxed frame, text with clickable
 * links. A registrant not signed in (~/lib/registrant.server) opens only one addressed to its address.
 */
import type { LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Link, useLoaderData, useRouteLoaderData } from "@remix-run/react";
import { ArrowLeft } from "lucide-react";
import { useTranslation } from "~/lib/react-i18n";
import { getOutboxEmail, getOutboxEmailTo } from "~api/mail/outbox";
import { MailBodyCards } from "~/components/settings/mail-body";
import { MailStatusBadge } from "~/components/settings/mail-status";
import { PageHeader } from "~/components/shell/page-header";
import { buttonVariants } from "~/components/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "~/components/ui/card";
import { orHttpError, requireRoute } from "~/lib/auth.server";
import { formatDate } from "~/lib/format";
import type { Lng } from "~/lib/i18n";
import { mailboxRegistrant } from "~/lib/registrant.server";
import type { RootData } from "~/root";

export const handle = {
  crumb: (data: unknown) => ({ key: "admin:mailbox.crumb", params: { subject: (data as { mail?: { subject?: string } } | undefined)?.mail?.subject ?? "" } }),
};

export async function loader({ request, params }: LoaderFunctionArgs) {
  const registrant = await mailboxRegistrant(request);
  const mail = await orHttpError(registrant ? getOutboxEmailTo(registrant, params.id) : getOutboxEmail(await requireRoute(request), params.id));
  return json({ mail }, { headers: { "Cache-Control": "no-store" } });
}

export default function MailboxEmail() {
  const { mail } = useLoaderData<typeof loader>();
  const root = useRouteLoaderData<RootData>("root");
  const lng = (root?.lng ?? "pt-BR") as Lng;
  const { t } = useTranslation(["common", "admin"]);
  const facts: Array<[string, React.ReactNode]> = [
    [
      t("mailbox.to"),
      <span key="to" className="font-mono">
        {mail.to}
      </span>,
    ],
    [t("mailbox.status"), <MailStatusBadge key="status" status={mail.status} />],
    [t("mailbox.date"), formatDate(mail.createdAt, lng, true)],
    [t("admin:mailbox.sentAt"), mail.sentAt ? formatDate(mail.sentAt, lng, true) : "—"],
    [t("admin:mailbox.attempts"), String(mail.attempts)],
  ];
  return (
    <div className="space-y-6">
      <PageHeader
        description={`${t("mailbox.to")}: ${mail.to}`}
        actions={
          <Link to="/dev/mailbox" className={buttonVariants({ variant: "outline", size: "sm" })}>
            <ArrowLeft /> {t("actions.back")}
          </Link>
        }
      />
      <Card>
        <CardContent>
          <dl className="grid gap-x-6 gap-y-2 text-sm sm:grid-cols-[auto_1fr]">
            <dt className="text-muted-foreground">{t("mailbox.subject")}</dt>
            <dd className="font-medium" data-testid="mail-subject">
              {mail.subject}
            </dd>
            {facts.map(([label, value]) => (
              <div key={label} className="contents">
                <dt className="text-muted-foreground">{label}</dt>
                <dd>{value}</dd>
              </div>
            ))}
            {mail.error ? (
              <>
                <dt className="text-muted-foreground">{t("admin:mailbox.error")}</dt>
                <dd className="text-destructive">{mail.error}</dd>
              </>
            ) : null}
          </dl>
        </CardContent>
      </Card>
      {mail.links.length > 0 ? (
        <Card>
          <CardHeader>
            <CardTitle>{t("admin:mailbox.links")}</CardTitle>
          </CardHeader>
          <CardContent>
            <ul className="space-y-1 text-sm" data-testid="mail-links">
              {mail.links.map((l) => (
                <li key={l}>
                  <a href={l} className="break-all text-primary hover:underline" target="_blank" rel="noreferrer">
                    {l}
                  </a>
                </li>
              ))}
            </ul>
          </CardContent>
        </Card>
      ) : null}
      <MailBodyCards subject={mail.subject} html={mail.html} text={mail.text} textTestId="mail-text" />
    </div>
  );
}
