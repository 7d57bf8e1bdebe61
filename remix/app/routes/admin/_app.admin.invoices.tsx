/**
 * /admin/invoices (issue 23, ADR 064): the invoices of every customer the person may see — the
 * platform's staff all, a reseller's owner or admin its own customers' — latest due date first,
 * filtered by status (pending, paid, fail), customer and due date range (São Paulo days; a GET
 * form), keyset pages. Each row opens its invoice (?invoice={id}: kind, period, lines, status) on
 * the same page. Read only; no script needed.
 */
import type { LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Form, Link, useLoaderData, useRouteLoaderData } from "@remix-run/react";
import { CustomerFilter } from "~/components/admin-catalogue/customer-filter";
import { filtersOf, MoreLink } from "~/components/admin-catalogue/more-link";
import { ErrorText } from "~/components/forms/fields";
import { PageHeader } from "~/components/shell/page-header";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardHeader } from "~/components/ui/card";
import { Input } from "~/components/ui/input";
import { Label } from "~/components/ui/label";
import { NativeSelect, NativeSelectOption } from "~/components/ui/native-select";
import { customerOptions } from "~/lib/admin-catalogue.server";
import { orHttpError, requireRoute } from "~/lib/auth.server";
import { formatDate, formatMoney } from "~/lib/format";
import type { Lng } from "~/lib/i18n";
import { useTranslation } from "~/lib/react-i18n";
import type { RootData } from "~/root";
import { getAdminInvoice, listAdminInvoices } from "~api/billing/admin-invoices";
import { isAppError } from "~api/lib/errors";

export const handle = { crumb: "adminCatalogue:crumbs.invoices" };
const STATUSES = ["pending", "paid", "fail"] as const;
const empty = { data: [], next_cursor: null };

export async function loader({ request }: LoaderFunctionArgs) {
  const ctx = await requireRoute(request);
  const url = new URL(request.url);
  const filters = filtersOf(request.url, ["status", "customer_id", "due_from", "due_to"]);
  let page: Awaited<ReturnType<typeof listAdminInvoices>> = empty;
  let fieldErrors: Record<string, string[]> = {};
  try {
    page = await listAdminInvoices(ctx, { ...filters, cursor: url.searchParams.get("cursor") ?? undefined, limit: "50" });
  } catch (e) {
    // A bad filter (a date range backwards) is said next to it, not a broken page.
    if (!isAppError(e) || e.code !== "VALIDATION") return orHttpError(Promise.reject(e));
    fieldErrors = e.fields ?? {};
  }
  const opened = url.searchParams.get("invoice");
  const invoice = opened ? (await orHttpError(getAdminInvoice(ctx, opened))).data : null;
  return json({ ...page, filters, fieldErrors, invoice, customers: await customerOptions(ctx) }, { headers: { "Cache-Control": "private, no-store" } });
}

export default function AdminInvoices() {
  const { data, next_cursor, filters, fieldErrors, invoice, customers } = useLoaderData<typeof loader>();
  const lng = (useRouteLoaderData<RootData>("root")?.lng ?? "pt-BR") as Lng;
  const { t } = useTranslation(["adminCatalogue", "billing"]);
  const open = (id: string) => `?${new URLSearchParams({ ...Object.fromEntries(Object.entries(filters).filter(([, v]) => v)), invoice: id })}`;
  return (
    <div className="space-y-6">
      <PageHeader description={t("adminCatalogue:invoices.description")} />
      {invoice ? (
        <Card data-invoice={invoice.id}>
          <CardHeader>
            <h2 className="leading-none font-semibold">
              {t("adminCatalogue:invoices.invoiceOf", { name: invoice.customer_name })} · {formatMoney(invoice.amount, invoice.currency, lng)}
            </h2>
          </CardHeader>
          <CardContent className="space-y-2 text-sm">
            <p>
              {t(`adminCatalogue:invoices.kinds.${invoice.kind}`)} · {t(`adminCatalogue:invoices.statuses.${invoice.status}`)} · {t("adminCatalogue:invoices.due")}{" "}
              {formatDate(invoice.due_at, lng)}
              {invoice.paid_at ? ` · ${t("adminCatalogue:invoices.paid")} ${formatDate(invoice.paid_at, lng, true)}` : ""}
            </p>
            {invoice.period_start ? (
              <p>
                {t("adminCatalogue:invoices.period")}: {formatDate(invoice.period_start, lng)} –{" "}
                {formatDate(new Date(new Date(invoice.period_end ?? invoice.period_start).getTime() - 1), lng)}
              </p>
            ) : null}
            <table className="w-full max-w-lg">
              <tbody>
                {invoice.lines.map((l) => (
                  <tr key={l.item} className="border-t">
                    <td className="py-1">{t(`adminCatalogue:invoices.lines.${l.item}`)}</td>
                    <td className="text-right">{l.quantity}</td>
                    <td className="text-right">{formatMoney(l.amount, invoice.currency, lng)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
            <Link to={`/admin/customers/${invoice.account_id}`} className="inline-block underline">
              {t("adminCatalogue:invoices.openCustomer")}
            </Link>
          </CardContent>
        </Card>
      ) : null}
      <Form method="get" className="flex flex-wrap items-end gap-2">
        <div className="grid gap-1">
          <Label htmlFor="invoices-status">{t("adminCatalogue:invoices.status")}</Label>
          <NativeSelect id="invoices-status" name="status" defaultValue={filters.status}>
            <NativeSelectOption value="">{t("adminCatalogue:filters.all")}</NativeSelectOption>
            {STATUSES.map((s) => (
              <NativeSelectOption key={s} value={s}>
                {t(`adminCatalogue:invoices.statuses.${s}`)}
              </NativeSelectOption>
            ))}
          </NativeSelect>
        </div>
        <CustomerFilter id="invoices-customer" customers={customers} value={filters.customer_id} />
        <div className="grid gap-1">
          <Label htmlFor="invoices-from">{t("adminCatalogue:invoices.dueFrom")}</Label>
          <Input id="invoices-from" name="due_from" type="date" defaultValue={filters.due_from} />
          <ErrorText errors={fieldErrors.due_from} />
        </div>
        <div className="grid gap-1">
          <Label htmlFor="invoices-to">{t("adminCatalogue:invoices.dueTo")}</Label>
          <Input id="invoices-to" name="due_to" type="date" defaultValue={filters.due_to} />
          <ErrorText errors={fieldErrors.due_to} />
        </div>
        <Button type="submit" variant="outline">
          {t("adminCatalogue:filters.apply")}
        </Button>
      </Form>
      <Card>
        <CardContent className="overflow-x-auto pt-6">
          {data.length === 0 ? (
            <p className="py-6 text-center text-sm text-muted-foreground">{t("adminCatalogue:invoices.empty")}</p>
          ) : (
            <table className="w-full text-sm">
              <thead>
                <tr className="text-left text-muted-foreground">
                  <th className="py-2">{t("adminCatalogue:customer")}</th>
                  <th>{t("adminCatalogue:invoices.kind")}</th>
                  <th className="text-right">{t("adminCatalogue:invoices.value")}</th>
                  <th className="pl-4">{t("adminCatalogue:invoices.due")}</th>
                  <th>{t("adminCatalogue:invoices.paid")}</th>
                  <th>{t("adminCatalogue:invoices.status")}</th>
                </tr>
              </thead>
              <tbody>
                {data.map((i) => (
                  <tr key={i.id} data-invoice-id={i.id} data-status={i.status} className="border-t">
                    <td className="py-2">{i.customer_name}</td>
                    <td>{t(`adminCatalogue:invoices.kinds.${i.kind}`)}</td>
                    <td className="text-right">
                      <Link to={open(i.id)} className="underline">
                        {formatMoney(i.amount, i.currency, lng)}
                      </Link>
                    </td>
                    <td className="pl-4">{formatDate(i.due_at, lng)}</td>
                    <td>{i.paid_at ? formatDate(i.paid_at, lng) : "—"}</td>
                    <td>{t(`adminCatalogue:invoices.statuses.${i.status}`)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
          <MoreLink filters={filters} next={next_cursor} />
        </CardContent>
      </Card>
    </div>
  );
}
