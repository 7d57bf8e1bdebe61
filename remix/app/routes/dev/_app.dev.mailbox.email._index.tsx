/**
 * /dev/mailbox/email: what the simulator's local SMTP peer received of the account's e-mail (issue
 * 17) — recipient, subject, when, the DKIM verdict the peer's independent verifier gave — newest
 * first, each opening its detail. Not available in production.
 */
import type { LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Link, useLoaderData, useRouteLoaderData } from "@remix-run/react";
import { useTranslation } from "~/lib/react-i18n";
import { listPeerMail } from "~api/email/local-peer";
import { DkimBadge } from "~/components/email/dkim-badge";
import { PageHeader } from "~/components/shell/page-header";
import { buttonVariants } from "~/components/ui/button";
import { Card, CardContent } from "~/components/ui/card";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "~/components/ui/table";
import { orHttpError, requireRoute } from "~/lib/auth.server";
import { formatDate } from "~/lib/format";
import type { Lng } from "~/lib/i18n";
import type { RootData } from "~/root";

export const handle = { crumb: "email:peer.crumb" };

export async function loader({ request }: LoaderFunctionArgs) {
  const ctx = await requireRoute(request);
  return json({ mail: await orHttpError(listPeerMail(ctx)) }, { headers: { "Cache-Control": "no-store" } });
}

export default function PeerMailbox() {
  const { mail } = useLoaderData<typeof loader>();
  const lng = (useRouteLoaderData<RootData>("root")?.lng ?? "pt-BR") as Lng;
  const { t } = useTranslation(["email", "common"]);
  return (
    <div className="space-y-6">
      <PageHeader
        description={t("peer.description")}
        actions={
          <Link to="/dev/mailbox" className={buttonVariants({ variant: "outline", size: "sm" })}>
            {t("peer.systemMail")}
          </Link>
        }
      />
      <Card className="py-0">
        <CardContent className="px-0">
          <Table data-testid="peer-mailbox">
            <TableHeader>
              <TableRow>
                <TableHead className="pl-4">{t("peer.to")}</TableHead>
                <TableHead>{t("peer.subject")}</TableHead>
                <TableHead>{t("peer.dkim")}</TableHead>
                <TableHead className="pr-4">{t("peer.received")}</TableHead>
              </TableRow>
            </TableHeader>
            <TableBody>
              {mail.length === 0 ? (
                <TableRow>
                  <TableCell colSpan={4} className="py-8 text-center text-muted-foreground">
                    {t("peer.empty")}
                  </TableCell>
                </TableRow>
              ) : (
                mail.map((m) => (
                  <TableRow key={m.id} data-peer-mail={m.message_id ?? ""}>
                    <TableCell className="pl-4 font-mono text-xs">{m.to.join(", ")}</TableCell>
                    <TableCell>
                      <Link to={`/dev/mailbox/email/${encodeURIComponent(m.id)}`} className="text-primary hover:underline">
                        {m.subject || "—"}
                      </Link>
                    </TableCell>
                    <TableCell>
                      <DkimBadge result={m.dkim.result} />
                    </TableCell>
                    <TableCell className="pr-4 whitespace-nowrap">{formatDate(m.received_at, lng, true)}</TableCell>
                  </TableRow>
                ))
              )}
            </TableBody>
          </Table>
        </CardContent>
      </Card>
    </div>
  );
}
