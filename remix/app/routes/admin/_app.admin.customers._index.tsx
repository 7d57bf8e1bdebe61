/**
 * /admin/customers (issue 18, ADR 046): the customer accounts — the platform's staff sees every
 * customer and reseller, a reseller's owner or admin only its own customers — with balance, credit
 * limit, status and plans held; a search by name (a GET form) and keyset pages ("More"). A row opens
 * the customer; "New customer" opens /admin/customers/create (issue 23). No script needed.
 */
import type { LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Form, Link, useLoaderData, useRouteLoaderData } from "@remix-run/react";
import { useTranslation } from "~/lib/react-i18n";
import { listCustomers } from "~api/customers/customers";
import { PageHeader } from "~/components/shell/page-header";
import { Button } from "~/components/ui/button";
import { Card, CardContent } from "~/components/ui/card";
import { Input } from "~/components/ui/input";
import { Label } from "~/components/ui/label";
import { orHttpError, requireRoute } from "~/lib/auth.server";
import { formatMoney } from "~/lib/format";
import type { Lng } from "~/lib/i18n";
import type { RootData } from "~/root";

export const handle = { crumb: "customers:crumbs.list" };

export async function loader({ request }: LoaderFunctionArgs) {
  const ctx = await requireRoute(request);
  const params = new URL(request.url).searchParams;
  const q = (params.get("q") ?? "").trim().slice(0, 100);
  const page = await orHttpError(listCustomers(ctx, { q: q || undefined, cursor: params.get("cursor") ?? undefined, limit: "50" }));
  return json({ ...page, q }, { headers: { "Cache-Control": "private, no-store" } });
}

export default function Customers() {
  const { data, next_cursor, q } = useLoaderData<typeof loader>();
  const lng = (useRouteLoaderData<RootData>("root")?.lng ?? "pt-BR") as Lng;
  const { t } = useTranslation("customers");
  const more = new URLSearchParams({ ...(q ? { q } : {}), cursor: next_cursor ?? "" });
  return (
    <div className="space-y-6">
      <PageHeader description={t("list.description")} />
      <Link to="/admin/customers/create" className="inline-block text-sm font-medium underline">
        {t("list.create")}
      </Link>
      <Form method="get" role="search" className="flex max-w-md items-end gap-2">
        <div className="grid flex-1 gap-1">
          <Label htmlFor="customers-q">{t("list.search")}</Label>
          <Input id="customers-q" name="q" type="search" defaultValue={q} placeholder={t("list.searchPlaceholder")} maxLength={100} />
        </div>
        <Button type="submit">{t("list.submit")}</Button>
      </Form>
      <Card>
        <CardContent className="overflow-x-auto pt-6">
          {data.length === 0 ? (
            <p className="py-6 text-center text-sm text-muted-foreground">{t("list.empty")}</p>
          ) : (
            <table className="w-full text-sm">
              <thead>
                <tr className="text-left text-muted-foreground">
                  <th className="py-2">{t("list.name")}</th>
                  <th>{t("list.type")}</th>
                  <th>{t("list.status")}</th>
                  <th className="text-right">{t("list.balance")}</th>
                  <th className="text-right">{t("list.creditLimit")}</th>
                  <th className="pl-4">{t("list.plans")}</th>
                </tr>
              </thead>
              <tbody>
                {data.map((c) => (
                  <tr key={c.id} data-customer-id={c.id} className="border-t">
                    <td className="py-2">
                      <Link to={`/admin/customers/${c.id}`} className="underline">
                        {c.name}
                      </Link>
                    </td>
                    <td>{t(`types.${c.type}`)}</td>
                    <td>{t(`statuses.${c.status}`)}</td>
                    <td data-col="balance" className="text-right">
                      {formatMoney(c.balance, c.currency, lng)}
                    </td>
                    <td className="text-right">{formatMoney(c.credit_limit, c.currency, lng)}</td>
                    <td className="pl-4">{c.plans.length ? c.plans.map((p) => p.name).join(", ") : t("list.noPlans")}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
          {next_cursor ? (
            <Link to={`?${more.toString()}`} className="mt-4 inline-block text-sm underline">
              {t("list.more")}
            </Link>
          ) : null}
        </CardContent>
      </Card>
    </div>
  );
}
