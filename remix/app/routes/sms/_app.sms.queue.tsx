/** /sms/queue: what a queue is, how many messages wait in each state and the ones waiting longest. */
import { json, type LoaderFunctionArgs } from "@remix-run/node";
import { Link, useLoaderData, useRouteLoaderData } from "@remix-run/react";
import { useTranslation } from "~/lib/react-i18n";
import { WAITING_STATUSES } from "~api/sms/report-constants";
import { smsQueue } from "~api/sms/reports";
import { Figures } from "~/components/sms-reports/figures";
import { formatCount } from "~/components/sms-reports/format";
import { SmsStatusBadge } from "~/components/sms-reports/status-badge";
import { PageHeader } from "~/components/shell/page-header";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "~/components/ui/table";
import { orHttpError, requireRoute } from "~/lib/auth.server";
import { formatDate } from "~/lib/format";
import type { RootData } from "~/root";

export const handle = { crumb: "smsReports:crumbs.queue" };

export async function loader({ request }: LoaderFunctionArgs) {
  const ctx = await requireRoute(request);
  return json({ queue: await orHttpError(smsQueue(ctx)) }, { headers: { "Cache-Control": "private, no-store" } });
}

export default function SmsQueue() {
  const { queue } = useLoaderData<typeof loader>();
  const lng = useRouteLoaderData<RootData>("root")?.lng ?? "pt-BR";
  const { t } = useTranslation("smsReports");
  return (
    <div className="space-y-6">
      <PageHeader description={t("queue.description")} />
      <Figures items={WAITING_STATUSES.map((s) => ({ key: s, label: t(`status.${s}`), value: formatCount(queue.counts[s], lng) }))} />
      <Card>
        <CardHeader>
          <CardTitle>{t("queue.oldest")}</CardTitle>
          <CardDescription>{t("queue.oldestHelp")}</CardDescription>
        </CardHeader>
        <CardContent>
          {queue.oldest.length === 0 ? (
            <p className="py-8 text-center text-sm text-muted-foreground">{t("queue.empty")}</p>
          ) : (
            <Table>
              <TableHeader>
                <TableRow>
                  <TableHead>{t("history.columns.date")}</TableHead>
                  <TableHead>{t("queue.scheduledFor")}</TableHead>
                  <TableHead>{t("history.columns.sender")}</TableHead>
                  <TableHead>{t("history.columns.recipient")}</TableHead>
                  <TableHead className="text-right">{t("history.columns.parts")}</TableHead>
                  <TableHead>{t("history.columns.status")}</TableHead>
                </TableRow>
              </TableHeader>
              <TableBody>
                {queue.oldest.map((m) => (
                  <TableRow key={m.id} data-message-id={m.id}>
                    <TableCell className="whitespace-nowrap">
                      <Link to={`/sms/history/${m.id}`} className="text-primary hover:underline">
                        {formatDate(m.created_at, lng, true)}
                      </Link>
                    </TableCell>
                    <TableCell className="whitespace-nowrap">{m.scheduled_at ? formatDate(m.scheduled_at, lng, true) : "—"}</TableCell>
                    <TableCell>{m.sender}</TableCell>
                    <TableCell>{m.recipient}</TableCell>
                    <TableCell className="text-right tabular-nums">{m.segments}</TableCell>
                    <TableCell>
                      <SmsStatusBadge status={m.status} />
                    </TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          )}
        </CardContent>
      </Card>
    </div>
  );
}
