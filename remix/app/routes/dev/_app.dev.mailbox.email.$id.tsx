/**
 * /dev/mailbox/email/{id}: one e-mail the local SMTP peer received — the DKIM verdict (domain,
 * selector), the envelope (return path, recipients), every header as received, the HTML rendered
 * in a sandboxed frame and the text part. Not available in production.
 */
import type { LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Link, useLoaderData, useRouteLoaderData } from "@remix-run/react";
import { ArrowLeft } from "lucide-react";
import { useTranslation } from "~/lib/react-i18n";
import { getPeerMail } from "~api/email/local-peer";
import { DkimBadge } from "~/components/email/dkim-badge";
import { MailBodyCards } from "~/components/settings/mail-body";
import { PageHeader } from "~/components/shell/page-header";
import { buttonVariants } from "~/components/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "~/components/ui/card";
import { orHttpError, requireRoute } from "~/lib/auth.server";
import { formatDate } from "~/lib/format";
import type { Lng } from "~/lib/i18n";
import type { RootData } from "~/root";

export const handle = {
  crumb: (data: unknown) => ({ key: "admin:mailbox.crumb", params: { subject: (data as { mail?: { subject?: string } } | undefined)?.mail?.subject ?? "" } }),
};

export async function loader({ request, params }: LoaderFunctionArgs) {
  const ctx = await requireRoute(request);
  return json({ mail: await orHttpError(getPeerMail(ctx, params.id ?? "")) }, { headers: { "Cache-Control": "no-store" } });
}

export default function PeerMail() {
  const { mail } = useLoaderData<typeof loader>();
  const lng = (useRouteLoaderData<RootData>("root")?.lng ?? "pt-BR") as Lng;
  const { t } = useTranslation(["email", "admin", "common"]);
  const facts: Array<[string, React.ReactNode]> = [
    [
      t("peer.subject"),
      <span key="subject" data-testid="peer-subject">
        {mail.subject}
      </span>,
    ],
    [t("peer.from"), mail.from],
    [
      t("peer.to"),
      <span key="to" className="font-mono">
        {mail.to.join(", ")}
      </span>,
    ],
    [
      t("peer.returnPath"),
      <code key="rp" className="break-all text-xs">
        {mail.mail_from}
      </code>,
    ],
    [t("peer.received"), formatDate(mail.received_at, lng, true)],
    [
      t("peer.dkim"),
      <span key="dkim" className="flex flex-wrap items-center gap-2" data-testid="peer-dkim">
        <DkimBadge result={mail.dkim.result} />
        {mail.dkim.domain ? <span className="text-xs text-muted-foreground">{t("peer.dkimBy", { domain: mail.dkim.domain, selector: mail.dkim.selector ?? "—" })}</span> : null}
      </span>,
    ],
  ];
  return (
    <div className="space-y-6">
      <PageHeader
        description={t("peer.detailDescription")}
        actions={
          <Link to="/dev/mailbox/email" className={buttonVariants({ variant: "outline", size: "sm" })}>
            <ArrowLeft /> {t("common:actions.back")}
          </Link>
        }
      />
      <Card>
        <CardContent>
          <dl className="grid gap-x-6 gap-y-2 text-sm sm:grid-cols-[auto_1fr]">
            {facts.map(([label, value]) => (
              <div key={label} className="contents">
                <dt className="text-muted-foreground">{label}</dt>
                <dd>{value}</dd>
              </div>
            ))}
          </dl>
        </CardContent>
      </Card>
      <MailBodyCards subject={mail.subject} html={mail.html} text={mail.text} textTestId="peer-text" />
      <Card>
        <CardHeader>
          <CardTitle>{t("peer.headers")}</CardTitle>
        </CardHeader>
        <CardContent>
          <dl className="grid gap-x-4 gap-y-1 font-mono text-xs sm:grid-cols-[auto_1fr]" data-testid="peer-headers">
            {mail.headers.map(([name, value], i) => (
              <div key={`${name}-${i}`} className="contents">
                <dt className="text-muted-foreground">{name}</dt>
                <dd className="break-all">{value}</dd>
              </div>
            ))}
          </dl>
        </CardContent>
      </Card>
    </div>
  );
}
