/**
 * /admin/short-codes (issue 23, ADR 064): every short code of the platform with its customer — the
 * platform's staff all of them (unassigned ones too), a reseller's owner or admin its own
 * customers' — by number, filtered by a part of the number or nickname, the customer and the
 * status (a GET form), keyset pages. Each row opens the customer's short code
 * (/admin/customers/{accountId}/short-codes/{id}). Read only; no script needed.
 */
import type { LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Form, Link, useLoaderData } from "@remix-run/react";
import { CustomerFilter } from "~/components/admin-catalogue/customer-filter";
import { filtersOf, MoreLink } from "~/components/admin-catalogue/more-link";
import { PageHeader } from "~/components/shell/page-header";
import { Button } from "~/components/ui/button";
import { Card, CardContent } from "~/components/ui/card";
import { Input } from "~/components/ui/input";
import { Label } from "~/components/ui/label";
import { NativeSelect, NativeSelectOption } from "~/components/ui/native-select";
import { customerOptions } from "~/lib/admin-catalogue.server";
import { orHttpError, requireRoute } from "~/lib/auth.server";
import { useTranslation } from "~/lib/react-i18n";
import { listAllShortCodes } from "~api/shortcodes/admin";

export const handle = { crumb: "adminCatalogue:crumbs.shortCodes" };

export async function loader({ request }: LoaderFunctionArgs) {
  const ctx = await requireRoute(request);
  const filters = filtersOf(request.url, ["q", "customer_id", "status"]);
  const page = await orHttpError(listAllShortCodes(ctx, { ...filters, cursor: new URL(request.url).searchParams.get("cursor") ?? undefined, limit: "50" }));
  return json({ ...page, filters, customers: await customerOptions(ctx) }, { headers: { "Cache-Control": "private, no-store" } });
}

export default function AdminShortCodes() {
  const { data, next_cursor, filters, customers } = useLoaderData<typeof loader>();
  const { t } = useTranslation("adminCatalogue");
  return (
    <div className="space-y-6">
      <PageHeader description={t("shortCodes.description")} />
      <Form method="get" role="search" className="flex flex-wrap items-end gap-2">
        <div className="grid gap-1">
          <Label htmlFor="codes-q">{t("shortCodes.search")}</Label>
          <Input id="codes-q" name="q" type="search" defaultValue={filters.q} maxLength={40} />
        </div>
        <CustomerFilter id="codes-customer" customers={customers} value={filters.customer_id} />
        <div className="grid gap-1">
          <Label htmlFor="codes-status">{t("shortCodes.status")}</Label>
          <NativeSelect id="codes-status" name="status" defaultValue={filters.status}>
            <NativeSelectOption value="">{t("filters.all")}</NativeSelectOption>
            <NativeSelectOption value="active">{t("shortCodes.active")}</NativeSelectOption>
            <NativeSelectOption value="inactive">{t("shortCodes.inactive")}</NativeSelectOption>
          </NativeSelect>
        </div>
        <Button type="submit" variant="outline">
          {t("filters.apply")}
        </Button>
      </Form>
      <Card>
        <CardContent className="overflow-x-auto pt-6">
          {data.length === 0 ? (
            <p className="py-6 text-center text-sm text-muted-foreground">{t("shortCodes.empty")}</p>
          ) : (
            <table className="w-full text-sm">
              <thead>
                <tr className="text-left text-muted-foreground">
                  <th className="py-2">{t("shortCodes.number")}</th>
                  <th>{t("shortCodes.nickname")}</th>
                  <th>{t("customer")}</th>
                  <th>{t("shortCodes.deliverability")}</th>
                  <th>{t("shortCodes.status")}</th>
                </tr>
              </thead>
              <tbody>
                {data.map((s) => (
                  <tr key={s.id} data-short-code-id={s.id} className="border-t">
                    <td className="py-2">
                      {s.account_id ? (
                        <Link to={`/admin/customers/${s.account_id}/short-codes/${s.id}`} className="underline">
                          {s.number}
                        </Link>
                      ) : (
                        s.number
                      )}
                    </td>
                    <td>{s.nickname || "—"}</td>
                    <td>{s.customer_name ?? t("shortCodes.unassigned")}</td>
                    <td>{s.deliverability.join(", ") || "—"}</td>
                    <td>{s.status === "active" ? t("shortCodes.active") : t("shortCodes.inactive")}</td>
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
