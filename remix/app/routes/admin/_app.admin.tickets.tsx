/**
 * /admin/tickets (issue 23, ADR 061): every customer's tickets for the platform's staff, the latest
 * activity first — filters by status, category and who is on it, a search by subject, customer or
 * number (a plain GET form) — each row linking to /admin/support/{id}.
 */
import type { LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Form, Link, useLoaderData } from "@remix-run/react";
import { CATEGORIES, STATUSES } from "~api/support/constants";
import { assignableStaff, listAllTickets } from "~api/support/tickets";
import { PageHeader } from "~/components/shell/page-header";
import { TicketStatus, useLng } from "~/components/support/ticket-parts";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardHeader } from "~/components/ui/card";
import { Input } from "~/components/ui/input";
import { Label } from "~/components/ui/label";
import { NativeSelect, NativeSelectOption } from "~/components/ui/native-select";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "~/components/ui/table";
import { orHttpError, requireRoute } from "~/lib/auth.server";
import { formatDate } from "~/lib/format";
import { useTranslation } from "~/lib/react-i18n";

export const handle = { crumb: "support:admin.title" };

const FILTERS = ["status", "category", "assigned", "q"] as const;

export async function loader({ request }: LoaderFunctionArgs) {
  const ctx = await requireRoute(request);
  const url = new URL(request.url);
  const filters = Object.fromEntries(FILTERS.map((k) => [k, url.searchParams.get(k) ?? ""])) as Record<(typeof FILTERS)[number], string>;
  const [list, staff] = await Promise.all([
    orHttpError(listAllTickets(ctx, { ...filters, cursor: url.searchParams.get("cursor") ?? undefined, limit: "30" })),
    assignableStaff(ctx),
  ]);
  return json({ tickets: list.data, next_cursor: list.next_cursor, filters, staff }, { headers: { "Cache-Control": "private, no-store" } });
}

export default function AdminTickets() {
  const { tickets, next_cursor, filters, staff } = useLoaderData<typeof loader>();
  const { t } = useTranslation("support");
  const lng = useLng();
  return (
    <div className="space-y-6">
      <PageHeader description={t("admin.description")} />
      <Card>
        <CardHeader>
          <Form method="get" className="flex flex-wrap items-end gap-2" role="search" aria-label={t("admin.searchLabel")}>
            <div className="grid gap-1.5">
              <Label htmlFor="admin-tickets-q">{t("admin.searchLabel")}</Label>
              <Input id="admin-tickets-q" name="q" defaultValue={filters.q} placeholder={t("admin.search")} className="w-56" />
            </div>
            <div className="grid gap-1.5">
              <Label htmlFor="admin-tickets-status">{t("list.columns.status")}</Label>
              <NativeSelect id="admin-tickets-status" name="status" defaultValue={filters.status}>
                <NativeSelectOption value="">{t("list.allStatuses")}</NativeSelectOption>
                {STATUSES.map((s) => (
                  <NativeSelectOption key={s} value={s}>
                    {t(`statuses.${s}`)}
                  </NativeSelectOption>
                ))}
              </NativeSelect>
            </div>
            <div className="grid gap-1.5">
              <Label htmlFor="admin-tickets-category">{t("list.columns.category")}</Label>
              <NativeSelect id="admin-tickets-category" name="category" defaultValue={filters.category}>
                <NativeSelectOption value="">{t("list.allCategories")}</NativeSelectOption>
                {CATEGORIES.map((c) => (
                  <NativeSelectOption key={c} value={c}>
                    {t(`categories.${c}`)}
                  </NativeSelectOption>
                ))}
              </NativeSelect>
            </div>
            <div className="grid gap-1.5">
              <Label htmlFor="admin-tickets-assigned">{t("admin.assigned")}</Label>
              <NativeSelect id="admin-tickets-assigned" name="assigned" defaultValue={filters.assigned}>
                <NativeSelectOption value="">{t("admin.anyone")}</NativeSelectOption>
                <NativeSelectOption value="me">{t("admin.me")}</NativeSelectOption>
                <NativeSelectOption value="none">{t("admin.nobody")}</NativeSelectOption>
                {staff.map((s) => (
                  <NativeSelectOption key={s.id} value={s.id}>
                    {s.name}
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
            <Table region={t("admin.title")}>
              <TableHeader>
                <TableRow>
                  <TableHead>{t("list.columns.number")}</TableHead>
                  <TableHead>{t("list.columns.subject")}</TableHead>
                  <TableHead>{t("list.columns.customer")}</TableHead>
                  <TableHead>{t("list.columns.status")}</TableHead>
                  <TableHead>{t("list.columns.assigned")}</TableHead>
                  <TableHead>{t("list.columns.updated")}</TableHead>
                  <TableHead>{t("list.columns.rating")}</TableHead>
                </TableRow>
              </TableHeader>
              <TableBody>
                {tickets.map((k) => (
                  <TableRow key={k.id} data-ticket-id={k.id} data-number={k.number}>
                    <TableCell>
                      <Link to={`/admin/support/${k.id}`} className="underline">
                        #{k.number}
                      </Link>
                    </TableCell>
                    <TableCell className="max-w-72">
                      <Link to={`/admin/support/${k.id}`} className="font-medium hover:underline">
                        {k.subject}
                      </Link>
                      <div className="text-xs text-muted-foreground">
                        {t(`categories.${k.category}`)} · {t("list.messages", { count: k.messages })}
                      </div>
                    </TableCell>
                    <TableCell>{k.account_name}</TableCell>
                    <TableCell>
                      <TicketStatus status={k.status} />
                    </TableCell>
                    <TableCell>{k.assigned_to_name ?? t("admin.nobody")}</TableCell>
                    <TableCell className="whitespace-nowrap">{formatDate(k.last_message_at, lng, true)}</TableCell>
                    <TableCell>{k.rating === null ? "—" : t("rating.value", { rating: k.rating })}</TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          )}
          {next_cursor ? (
            <Link to={`?${new URLSearchParams({ ...filters, cursor: next_cursor })}`} className="mt-4 inline-block text-sm underline">
              {t("list.more")}
            </Link>
          ) : null}
        </CardContent>
      </Card>
    </div>
  );
}
