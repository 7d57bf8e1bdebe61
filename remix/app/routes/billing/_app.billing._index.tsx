/**
 * /billing: the account's billing at a glance (issue 18): balance, credit limit and what may still
 * be spent, the plans held (renewal or end), the next invoice to pay, the last 30 days' money by
 * kind (from the ledger), a suspended account's reason, a trial that ended (choose a plan: nothing
 * was deleted), and what a plan change just did (?changed, ?charged from /billing/plans/{id}).
 */
import type { LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Link, useLoaderData, useRouteLoaderData } from "@remix-run/react";
import { useTranslation } from "~/lib/react-i18n";
import { billingOverview } from "~api/billing/overview";
import { PageHeader } from "~/components/shell/page-header";
import { Badge } from "~/components/ui/badge";
import { ProductsTable } from "~/components/billing/products-table";
import { Card, CardContent, CardHeader, CardTitle } from "~/components/ui/card";
import { orHttpError, requireRoute } from "~/lib/auth.server";
import { formatDate, formatMoney } from "~/lib/format";
import type { Lng } from "~/lib/i18n";
import type { RootData } from "~/root";

export const handle = { crumb: "plans:crumbs.billing" };

export async function loader({ request }: LoaderFunctionArgs) {
  const ctx = await requireRoute(request);
  const overview = await orHttpError(billingOverview(ctx));
  const url = new URL(request.url);
  const changedId = url.searchParams.get("changed");
  const charged = Number(url.searchParams.get("charged"));
  // What a change just did, named from the account's own plans (a link cannot make it say anything else).
  const changedPlan = changedId ? overview.plans.find((p) => p.plan_id === changedId) : undefined;
  const changed = changedPlan && Number.isSafeInteger(charged) ? { name: changedPlan.name, charged } : null;
  return json({ overview, changed }, { headers: { "Cache-Control": "private, no-store" } });
}

export default function Billing() {
  const { overview: o, changed } = useLoaderData<typeof loader>();
  const lng = (useRouteLoaderData<RootData>("root")?.lng ?? "pt-BR") as Lng;
  const { t } = useTranslation("plans");
  const money = (v: number) => formatMoney(v, o.currency, lng);
  return (
    <div className="space-y-6">
      <PageHeader description={t("billing.description")} />
      {changed ? (
        <div role="status" className="rounded-md border border-primary/40 bg-primary/10 px-3 py-2 text-sm" data-testid="plan-changed">
          <p>{t("billing.changed", { name: changed.name })}</p>
          {changed.charged > 0 ? <p>{t("billing.charged", { amount: money(changed.charged) })}</p> : null}
          {changed.charged < 0 ? <p>{t("billing.returned", { amount: money(-changed.charged) })}</p> : null}
        </div>
      ) : null}
      {o.status === "suspended" ? (
        <div role="alert" className="rounded-md border border-destructive/40 bg-destructive/10 px-3 py-2 text-sm text-destructive">
          {t("billing.suspended")}
        </div>
      ) : null}
      {o.trial_ended && !o.plans.some((p) => p.service === o.trial_ended!.service) ? (
        <div role="alert" className="rounded-md border border-amber-400/60 bg-amber-50 px-3 py-2 text-sm dark:bg-amber-950" data-testid="trial-ended">
          {t("billing.trialEnded", { date: formatDate(o.trial_ended.ended_at, lng), service: t(`services.${o.trial_ended.service}`, { defaultValue: o.trial_ended.service }) })}{" "}
          <Link to="/billing/upgrade" className="font-medium underline">
            {t("billing.choosePlan")}
          </Link>
        </div>
      ) : null}
      <div className="grid gap-4 md:grid-cols-3">
        <Card>
          <CardHeader>
            <CardTitle className="text-sm font-medium text-muted-foreground">{t("billing.balance")}</CardTitle>
          </CardHeader>
          <CardContent>
            <p className="text-2xl font-semibold" data-testid="billing-balance">
              {money(o.balance)}
            </p>
            <Link to="/new-invoice" className="text-sm underline">
              {t("billing.topUp")}
            </Link>
          </CardContent>
        </Card>
        <Card>
          <CardHeader>
            <CardTitle className="text-sm font-medium text-muted-foreground">{t("billing.creditLimit")}</CardTitle>
          </CardHeader>
          <CardContent>
            <p className="text-2xl font-semibold">{money(o.credit_limit)}</p>
            <p className="text-sm text-muted-foreground">
              {t("billing.available")}: <span data-testid="available">{money(o.available)}</span>
            </p>
          </CardContent>
        </Card>
        <Card>
          <CardHeader>
            <CardTitle className="text-sm font-medium text-muted-foreground">{t("billing.nextInvoice")}</CardTitle>
          </CardHeader>
          <CardContent data-testid="next-invoice">
            {o.next_invoice ? (
              <>
                <p className="text-2xl font-semibold">{formatMoney(o.next_invoice.amount, o.next_invoice.currency, lng)}</p>
                <p className="text-sm text-muted-foreground">{t("billing.dueOn", { date: formatDate(o.next_invoice.due_at, lng) })}</p>
                <Link to={`/invoice/${o.next_invoice.id}`} className="text-sm underline">
                  {t("billing.pay")}
                </Link>
              </>
            ) : (
              <p className="text-sm text-muted-foreground">{t("billing.noInvoice")}</p>
            )}
          </CardContent>
        </Card>
      </div>
      <Card>
        <CardHeader>
          <CardTitle>{t("billing.plans")}</CardTitle>
        </CardHeader>
        <CardContent className="space-y-3">
          {o.plans.length === 0 ? <p className="text-sm text-muted-foreground">{t("billing.noPlans")}</p> : null}
          <ul className="divide-y" data-testid="current-plans">
            {o.plans.map((p) => (
              <li key={p.service} className="flex flex-wrap items-center justify-between gap-2 py-2 text-sm" data-plan={p.name}>
                <span className="flex items-center gap-2">
                  <Link to={`/billing/plans/${p.plan_id}`} className="font-medium underline">
                    {p.name}
                  </Link>
                  <Badge variant="secondary">{t(`services.${p.service}`, { defaultValue: p.service })}</Badge>
                  {p.is_trial ? <Badge variant="warning">{t("billing.trial")}</Badge> : null}
                </span>
                <span className="text-muted-foreground">
                  {p.price > 0 ? `${formatMoney(p.price, p.currency, lng)} ${t(`cycles.${p.billing_cycle}`)} · ` : ""}
                  {p.renews_at
                    ? t("billing.renewsAt", { date: formatDate(p.renews_at, lng) })
                    : p.ends_at
                      ? t("billing.endsAt", { date: formatDate(p.ends_at, lng) })
                      : t("billing.noRenewal")}
                </span>
              </li>
            ))}
          </ul>
          <div className="flex flex-wrap gap-4 text-sm">
            <Link to="/billing/upgrade" className="font-medium underline">
              {t("billing.compare")}
            </Link>
            <Link to="/plans" className="underline">
              {t("crumbs.plans")}
            </Link>
            <Link to="/invoices" className="underline">
              {t("billing.invoices")}
            </Link>
          </div>
        </CardContent>
      </Card>
      {o.products.length > 0 ? (
        <Card>
          <CardHeader>
            <CardTitle>{t("billing.products")}</CardTitle>
          </CardHeader>
          <CardContent className="space-y-3" data-testid="billing-products">
            <ProductsTable products={o.products} lng={lng} />
            <Link to="/customer/products" className="text-sm underline">
              {t("billing.allProducts")}
            </Link>
          </CardContent>
        </Card>
      ) : null}
      <Card>
        <CardHeader>
          <CardTitle>{t("billing.last30")}</CardTitle>
        </CardHeader>
        <CardContent className="overflow-x-auto">
          {o.last_30_days.length === 0 ? (
            <p className="text-sm text-muted-foreground">{t("billing.noMovement")}</p>
          ) : (
            <table className="w-full text-sm" data-testid="last-30">
              <tbody>
                {o.last_30_days.map((k) => (
                  <tr key={k.kind} className="border-t first:border-t-0" data-kind={k.kind}>
                    <td className="py-2">{t(`kinds.${k.kind}`, { defaultValue: k.kind })}</td>
                    <td className="text-right tabular-nums">{money(k.amount)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </CardContent>
      </Card>
    </div>
  );
}
