/**
 * /invoice/{id}: one invoice of the account (issue 18, ADR 043, 044): its status, amount, due and paid
 * dates, a cycle's period, its line items and, while it can be paid (pending, or a cycle's failed
 * for being overdue), how to pay it — the Pix QR code (drawn on the server, no script), the
 * "copia e cola" and the payment provider's page. The provider's confirmation makes it paid: the
 * page shows it on the next load.
 */
import type { LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Link, useLoaderData, useRouteLoaderData } from "@remix-run/react";
import { useTranslation } from "~/lib/react-i18n";
import { getInvoice } from "~api/billing/invoices";
import { pixQrSvg } from "~api/billing/pix";
import { PageHeader } from "~/components/shell/page-header";
import { Card, CardContent, CardHeader } from "~/components/ui/card";
import { orHttpError, requireRoute } from "~/lib/auth.server";
import { formatDate, formatMoney } from "~/lib/format";
import type { Lng } from "~/lib/i18n";
import type { RootData } from "~/root";

export const handle = { crumb: "billing:crumbs.invoice" };

export async function loader({ request, params }: LoaderFunctionArgs) {
  const ctx = await requireRoute(request);
  const { data } = await orHttpError(getInvoice(ctx, params.id ?? ""));
  // The QR code as an image of our own SVG (a data: URL: CSP allows it for images, and no markup of ours is injected).
  const qr = data.pix ? `data:image/svg+xml;base64,${Buffer.from(await pixQrSvg(data.pix.payload)).toString("base64")}` : null;
  return json({ invoice: data, qr }, { headers: { "Cache-Control": "private, no-store" } });
}

export default function InvoiceScreen() {
  const { invoice, qr } = useLoaderData<typeof loader>();
  const lng = (useRouteLoaderData<RootData>("root")?.lng ?? "pt-BR") as Lng;
  const { t } = useTranslation("billing");
  return (
    <div className="space-y-6">
      <PageHeader description={t("invoice.description")} />
      <Card className="max-w-2xl" data-invoice-id={invoice.id} data-status={invoice.status}>
        <CardHeader>
          <h2 className="leading-none font-semibold">
            {t(`kinds.${invoice.kind}`)} · <span data-testid="invoice-status">{t(`statuses.${invoice.status}`)}</span>
          </h2>
        </CardHeader>
        <CardContent className="space-y-4">
          <dl className="grid grid-cols-[10rem_1fr] gap-y-2 text-sm">
            <dt className="text-muted-foreground">{t("invoice.amount")}</dt>
            <dd data-testid="invoice-amount">{formatMoney(invoice.amount, invoice.currency, lng)}</dd>
            <dt className="text-muted-foreground">{t("invoice.created")}</dt>
            <dd>{formatDate(invoice.created_at, lng, true)}</dd>
            <dt className="text-muted-foreground">{t("invoice.due")}</dt>
            <dd>{formatDate(invoice.due_at, lng, true)}</dd>
            {invoice.paid_at ? (
              <>
                <dt className="text-muted-foreground">{t("invoice.paid")}</dt>
                <dd data-testid="invoice-paid-at">{formatDate(invoice.paid_at, lng, true)}</dd>
              </>
            ) : null}
            {invoice.period_start && invoice.period_end ? (
              <>
                <dt className="text-muted-foreground">{t("invoice.period")}</dt>
                <dd data-testid="invoice-period">
                  {/* The period ends at a São Paulo midnight (exclusive): its last day is the one before. */}
                  {t("invoice.periodRange", { from: formatDate(invoice.period_start, lng), to: formatDate(new Date(new Date(invoice.period_end).getTime() - 1), lng) })}
                </dd>
              </>
            ) : null}
          </dl>
          <div className="overflow-x-auto">
            <table className="w-full text-sm" data-testid="invoice-lines" aria-label={t("invoice.lines")}>
              <thead>
                <tr className="text-left text-muted-foreground">
                  <th className="py-1">{t("invoice.item")}</th>
                  <th className="text-right">{t("invoice.quantity")}</th>
                  <th className="text-right">{t("invoice.amount")}</th>
                </tr>
              </thead>
              <tbody>
                {invoice.lines.map((l) => (
                  <tr key={l.item} className="border-t" data-item={l.item}>
                    <td className="py-1">{t(`lines.${l.item}`)}</td>
                    <td className="text-right">{l.quantity}</td>
                    <td className="text-right">{formatMoney(l.amount, invoice.currency, lng)}</td>
                  </tr>
                ))}
                <tr className="border-t font-medium">
                  <td className="py-1">{t("invoice.total")}</td>
                  <td />
                  <td className="text-right">{formatMoney(invoice.amount, invoice.currency, lng)}</td>
                </tr>
              </tbody>
            </table>
          </div>
          {invoice.pix ? (
            <section className="space-y-3" aria-label={t("invoice.pix")}>
              <h3 className="font-medium">{t("invoice.pix")}</h3>
              {/* The QR code is our own SVG of the provider's BR Code (api/billing/pix.ts). */}
              {qr ? <img className="w-56" data-testid="pix-qr" src={qr} alt={t("invoice.qrAlt")} /> : null}
              <label className="block text-sm" htmlFor="pix-payload">
                {t("invoice.copyPaste")}
              </label>
              <textarea id="pix-payload" readOnly rows={4} className="w-full rounded-md border p-2 font-mono text-xs" data-testid="pix-payload" value={invoice.pix.payload} />
              {invoice.pix.pay_url ? (
                <a className="inline-block text-sm font-medium underline" href={invoice.pix.pay_url} data-testid="pay-link">
                  {t("invoice.payAtProvider")}
                </a>
              ) : null}
            </section>
          ) : null}
          <div className="flex gap-4">
            {/* A document, not a screen: a plain link (reloadDocument) downloads it with or without JavaScript. */}
            <Link to={`/invoice/${invoice.id}/pdf`} reloadDocument className="text-sm font-medium underline" data-testid="invoice-pdf">
              {t("invoice.pdf")}
            </Link>
            <Link to="/invoices" className="text-sm underline">
              {t("invoice.back")}
            </Link>
          </div>
        </CardContent>
      </Card>
    </div>
  );
}
