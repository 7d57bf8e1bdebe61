/**
 * /invoices: the account's invoices, newest first (issue 18): kind, status, amount, due and paid
 * dates; a row opens the invoice. An account suspended for an unpaid invoice (ADR 044) is sent
 * here from every other screen, and told why. Keyset pages ("More"), a link to top up. No script needed.
 */
import type { LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Link, useLoaderData, useRouteLoaderData } from "@remix-run/react";
import { useTranslation } from "~/lib/react-i18n";
import { listInvoices } from "~api/billing/invoices";
import { PageHeader } from "~/components/shell/page-header";
import { Card, CardContent } from "~/components/ui/card";
import { orHttpError, requireRoute } from "~/lib/auth.server";
import { formatDate, formatMoney } from "~/lib/format";
import type { Lng } from "~/lib/i18n";
import type { RootData } from "~/root";

export const handle = { crumb: "billing:crumbs.invoices" };

export async function loader({ request }: LoaderFunctionArgs) {
  const ctx = await requireRoute(request);
  const cursor = new URL(request.url).searchParams.get("cursor") ?? undefined;
  const page = await orHttpError(listInvoices(ctx, { cursor, limit: "50" }));
  // Suspended for an unpaid invoice (ADR 044): every other screen brings them here; say why.
  return json({ ...page, suspended: ctx.actor.suspended === true }, { headers: { "Cache-Control": "private, no-store" } });
}

export default function Invoices() {
  const { data, next_cursor, suspended } = useLoaderData<typeof loader>();
  const lng = (useRouteLoaderData<RootData>("root")?.lng ?? "pt-BR") as Lng;
  const { t } = useTranslation("billing");
  return (
    <div className="space-y-6">
      <PageHeader description={t("invoices.description")} />
      {suspended ? (
        <p role="alert" data-testid="account-suspended" className="rounded-md border border-destructive p-3 text-sm text-destructive">
          {t("invoices.suspended")}
        </p>
      ) : null}
      <Link to="/new-invoice" className="inline-block text-sm font-medium underline">
        {t("invoices.topUp")}
      </Link>
      <Card>
        <CardContent className="overflow-x-auto pt-6">
          {data.length === 0 ? (
            <p className="py-6 text-center text-sm text-muted-foreground">{t("invoices.empty")}</p>
          ) : (
            <table className="w-full text-sm">
              <thead>
                <tr className="text-left text-muted-foreground">
                  <th className="py-2">{t("invoices.created")}</th>
                  <th>{t("invoices.kind")}</th>
                  <th>{t("invoices.status")}</th>
                  <th className="text-right">{t("invoices.amount")}</th>
                  <th>{t("invoices.due")}</th>
                </tr>
              </thead>
              <tbody>
                {data.map((i) => (
                  <tr key={i.id} data-invoice-id={i.id} className="border-t">
                    <td className="py-2">
                      <Link to={`/invoice/${i.id}`} className="underline">
                        {formatDate(i.created_at, lng, true)}
                      </Link>
                    </td>
                    <td>{t(`kinds.${i.kind}`)}</td>
                    <td data-col="status">{t(`statuses.${i.status}`)}</td>
                    <td data-col="amount" className="text-right">
                      {formatMoney(i.amount, i.currency, lng)}
                    </td>
                    <td>{formatDate(i.due_at, lng)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
          {next_cursor ? (
            <Link to={`?cursor=${encodeURIComponent(next_cursor)}`} className="mt-4 inline-block text-sm underline">
              {t("invoices.more")}
            </Link>
          ) : null}
        </CardContent>
      </Card>
    </div>
  );
}
