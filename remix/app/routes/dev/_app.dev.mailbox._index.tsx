/**
 * /dev/mailbox: e-mails written to the local outbox, newest first, keyset paged (?before=<id>). A
 * registrant not signed in (~/lib/registrant.server) sees those addressed to its address only.
 */
import type { LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Link, useLoaderData, useRouteLoaderData } from "@remix-run/react";
import { useTranslation } from "~/lib/react-i18n";
import { listOutbox, listOutboxTo } from "~api/mail/outbox";
import { MailStatusBadge } from "~/components/settings/mail-status";
import { PageHeader } from "~/components/shell/page-header";
import { buttonVariants } from "~/components/ui/button";
import { Card, CardContent } from "~/components/ui/card";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "~/components/ui/table";
import { orHttpError, requireRoute } from "~/lib/auth.server";
import { formatDate } from "~/lib/format";
import type { Lng } from "~/lib/i18n";
import { mailboxRegistrant } from "~/lib/registrant.server";
import type { RootData } from "~/root";

export async function loader({ request }: LoaderFunctionArgs) {
  const registrant = await mailboxRegistrant(request);
  const url = new URL(request.url);
  const before = url.searchParams.get("before") ?? undefined;
  const page = await orHttpError(registrant ? listOutboxTo(registrant, { before }) : listOutbox(await requireRoute(request), { before }));
  return json({ ...page, paged: Boolean(before), registrant }, { headers: { "Cache-Control": "no-store" } });
}

export default function Mailbox() {
  const { data, next, paged, registrant } = useLoaderData<typeof loader>();
  const root = useRouteLoaderData<RootData>("root");
  const lng = (root?.lng ?? "pt-BR") as Lng;
  const { t } = useTranslation(["common", "admin", "email"]);
  return (
    <div className="space-y-6">
      <PageHeader
        description={registrant ? t("admin:mailbox.registrant", { email: registrant }) : t("mailbox.description")}
        actions={
          registrant ? null : (
            <Link to="/dev/mailbox/email" className={buttonVariants({ variant: "outline", size: "sm" })}>
              {t("email:peer.crumb")}
            </Link>
          )
        }
      />
      <Card className="py-0">
        <CardContent className="px-0">
          <Table data-testid="mailbox">
            <TableHeader>
              <TableRow>
                <TableHead className="pl-4">{t("mailbox.to")}</TableHead>
                <TableHead>{t("mailbox.subject")}</TableHead>
                <TableHead>{t("mailbox.status")}</TableHead>
                <TableHead className="pr-4">{t("mailbox.date")}</TableHead>
              </TableRow>
            </TableHeader>
            <TableBody>
              {data.length === 0 ? (
                <TableRow>
                  <TableCell colSpan={4} className="py-8 text-center text-muted-foreground">
                    {t("mailbox.empty")}
                  </TableCell>
                </TableRow>
              ) : null}
              {data.map((m) => (
                <TableRow key={m.id} data-mail-id={m.id}>
                  <TableCell className="pl-4 font-mono text-xs">{m.to}</TableCell>
                  <TableCell className="max-w-96 truncate">
                    <Link to={`/dev/mailbox/${m.id}`} className="font-medium text-primary hover:underline" title={t("mailbox.open")}>
                      {m.subject}
                    </Link>
                  </TableCell>
                  <TableCell>
                    <MailStatusBadge status={m.status} />
                  </TableCell>
                  <TableCell className="pr-4">
                    <time dateTime={m.createdAt}>{formatDate(m.createdAt, lng, true)}</time>
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </CardContent>
      </Card>
      <div className="flex flex-wrap items-center justify-center gap-3">
        {paged ? (
          <Link to="/dev/mailbox" className={buttonVariants({ variant: "ghost", size: "sm" })}>
            {t("admin:mailbox.newest")}
          </Link>
        ) : null}
        {next ? (
          <Link to={`/dev/mailbox?before=${next}`} rel="next" className={buttonVariants({ variant: "outline", size: "sm" })}>
            {t("admin:mailbox.more")}
          </Link>
        ) : null}
      </div>
    </div>
  );
}
