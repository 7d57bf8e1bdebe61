/**
 * /support (issue 23, ADR 061): the account's tickets, the latest activity first, with a status
 * filter (a plain GET form), a link to open a ticket and to the latest messages. Everyone signed in
 * to an account may ask for help.
 */
import type { LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Form, Link, useLoaderData } from "@remix-run/react";
import { STATUSES } from "~api/support/constants";
import { listTickets } from "~api/support/tickets";
import { PageHeader } from "~/components/shell/page-header";
import { TicketStatus, useLng } from "~/components/support/ticket-parts";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardHeader } from "~/components/ui/card";
import { Label } from "~/components/ui/label";
import { NativeSelect, NativeSelectOption } from "~/components/ui/native-select";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "~/components/ui/table";
import { orHttpError, requireRoute } from "~/lib/auth.server";
import { formatDate } from "~/lib/format";
import { useTranslation } from "~/lib/react-i18n";

export const handle = { crumb: "support:title" };

export async function loader({ request }: LoaderFunctionArgs) {
  const ctx = await requireRoute(request);
  const url = new URL(request.url);
  const status = url.searchParams.get("status") ?? "";
  const list = await orHttpError(listTickets(ctx, { status, cursor: url.searchParams.get("cursor") ?? undefined, limit: "25" }));
  return json({ tickets: list.data, next_cursor: list.next_cursor, status }, { headers: { "Cache-Control": "private, no-store" } });
}

export default function SupportTickets() {
  const { tickets, next_cursor, status } = useLoaderData<typeof loader>();
  const { t } = useTranslation("support");
  const lng = useLng();
  return (
    <div className="space-y-6">
      <PageHeader
        description={t("description")}
        actions={
          <div className="flex flex-wrap gap-2">
            <Button asChild variant="outline" size="sm">
              <Link to="/support/messages-ticket">{t("messagesLink")}</Link>
            </Button>
            <Button asChild size="sm">
              <Link to="/support/new-ticket">{t("newTicket")}</Link>
            </Button>
          </div>
        }
      />
      <Card>
        <CardHeader>
          <Form method="get" className="flex flex-wrap items-end gap-2">
            <div className="grid gap-1.5">
              <Label htmlFor="tickets-status">{t("list.columns.status")}</Label>
              <NativeSelect id="tickets-status" name="status" defaultValue={status}>
                <NativeSelectOption value="">{t("list.allStatuses")}</NativeSelectOption>
                {STATUSES.map((s) => (
                  <NativeSelectOption key={s} value={s}>
                    {t(`statuses.${s}`)}
                  </NativeSelectOption>
                ))}
              </NativeSelect>
            </div>
            <Button type="submit" variant="outline">
              {t("list.filter")}
            </Button>
          </Form>
        </CardHeader>
        <CardContent>
          {tickets.length === 0 ? (
            <p data-empty="tickets" className="text-sm text-muted-foreground">
              {t("list.empty")}
            </p>
          ) : (
            <Table region={t("title")}>
              <TableHeader>
                <TableRow>
                  <TableHead>{t("list.columns.number")}</TableHead>
                  <TableHead>{t("list.columns.subject")}</TableHead>
                  <TableHead>{t("list.columns.category")}</TableHead>
                  <TableHead>{t("list.columns.status")}</TableHead>
                  <TableHead>{t("list.columns.updated")}</TableHead>
                  <TableHead>{t("list.columns.rating")}</TableHead>
                </TableRow>
              </TableHeader>
              <TableBody>
                {tickets.map((k) => (
                  <TableRow key={k.id} data-ticket-id={k.id} data-number={k.number}>
                    <TableCell>
                      <Link to={`/support/${k.id}`} className="underline">
                        #{k.number}
                      </Link>
                    </TableCell>
                    <TableCell className="max-w-72">
                      <Link to={`/support/${k.id}`} className="font-medium hover:underline">
                        {k.subject}
                      </Link>
                      <div className="text-xs text-muted-foreground">{t("list.messages", { count: k.messages })}</div>
                    </TableCell>
                    <TableCell>{t(`categories.${k.category}`)}</TableCell>
                    <TableCell>
                      <TicketStatus status={k.status} />
                    </TableCell>
                    <TableCell className="whitespace-nowrap">{formatDate(k.last_message_at, lng, true)}</TableCell>
                    <TableCell>{k.rating === null ? "—" : t("rating.value", { rating: k.rating })}</TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          )}
          {next_cursor ? (
            <Link to={`?${new URLSearchParams({ status, cursor: next_cursor })}`} className="mt-4 inline-block text-sm underline">
              {t("list.more")}
            </Link>
          ) : null}
        </CardContent>
      </Card>
    </div>
  );
}
