/**
 * /admin/customers/{customerId} (issue 18, ADR 046): one customer — its account, balance, credit
 * limit and what may be spent, plans held, last invoices and the last entries of its book with who
 * made them and why — and, for the platform's staff only, "Adjust balance": an amount in reais
 * (positive credits, negative debits: "50,00", "-12,34") and a reason, one `adjustment` posting of
 * the ledger. The form carries an idempotency key made with the page, so posting it twice (a double
 * press, a resubmission) adjusts once. A plain form: works without JavaScript; on success the page
 * says what was adjusted and shows the new balance.
 */
import { randomUUID } from "node:crypto";
import { getFormProps, useForm } from "@conform-to/react";
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { json, redirect } from "@remix-run/node";
import type { ShouldRevalidateFunction } from "@remix-run/react";
import { Form, Link, useActionData, useLoaderData, useNavigation, useRouteLoaderData } from "@remix-run/react";
import { useTranslation } from "~/lib/react-i18n";
import { adjustCustomerBalance, getCustomer } from "~api/customers/customers";
import { listCustomerProducts } from "~api/products/products";
import { ProductsTable } from "~/components/billing/products-table";
import { TextareaField } from "~/components/forms/controls";
import { CsrfInput, FormErrors, TextField } from "~/components/forms/fields";
import { PageHeader } from "~/components/shell/page-header";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { orHttpError, requireRoute } from "~/lib/auth.server";
import { formatDate, formatMoney } from "~/lib/format";
import { handleForm, type FormReply } from "~/lib/forms.server";
import type { Lng } from "~/lib/i18n";
import type { RootData } from "~/root";
import { adjustBalanceSchema } from "~/forms/admin-customer";
import { useLazyValidate } from "~/lib/lazy-validate";

export const handle = {
  crumb: (data: unknown) => ({ key: "customers:crumbs.customer", params: { name: (data as { customer?: { name?: string } } | undefined)?.customer?.name ?? "" } }),
};

export async function loader({ request, params }: LoaderFunctionArgs) {
  const ctx = await requireRoute(request);
  const { data } = await orHttpError(getCustomer(ctx, params.customerId ?? ""));
  const url = new URL(request.url);
  const adjusted = url.searchParams.get("adjusted");
  const balance = url.searchParams.get("balance");
  const done = adjusted !== null && balance !== null && /^-?\d+$/.test(adjusted) && /^-?\d+$/.test(balance) ? { amount: Number(adjusted), balance: Number(balance) } : null;
  // The customer's products (ADR 048): the platform's staff, who hire and change them.
  const products = data.can_adjust ? await orHttpError(listCustomerProducts(ctx, data.id, { cursor: url.searchParams.get("products") ?? undefined, limit: "50" })) : null;
  return json({ customer: data, done, products, key: data.can_adjust ? randomUUID() : null }, { headers: { "Cache-Control": "private, no-store" } });
}

/**
 * A refused adjustment does not reload the page's data: a reload would bring a new key, so a new
 * form, and clear what the person is already typing to correct it (nothing was written anyway).
 */
export const shouldRevalidate: ShouldRevalidateFunction = ({ actionResult, defaultShouldRevalidate }) =>
  (actionResult as FormReply | undefined)?.result?.status === "error" ? false : defaultShouldRevalidate;

export async function action({ request, params }: ActionFunctionArgs) {
  const ctx = await requireRoute(request);
  const id = params.customerId ?? "";
  return handleForm(request, adjustBalanceSchema, async ({ amount, reason, key }) => {
    const { data } = await adjustCustomerBalance(ctx, id, { amount, reason }, key);
    return redirect(`/admin/customers/${id}?adjusted=${data.amount}&balance=${data.balance_after}`);
  });
}

export default function Customer() {
  const { customer: c, done, products, key } = useLoaderData<typeof loader>();
  const last = useActionData<FormReply>();
  const busy = useNavigation().state === "submitting";
  const lng = (useRouteLoaderData<RootData>("root")?.lng ?? "pt-BR") as Lng;
  const { t } = useTranslation(["customers", "billing", "products"]);
  const [form, fields] = useForm({
    // A new form (empty fields) with every new page: after an adjustment nothing is left filled in to press again.
    id: `adjust-${key ?? "none"}`,
    lastResult: last?.result,
    onValidate: useLazyValidate(() => import("~/forms/admin-customer").then((m) => m.adjustBalanceSchema)),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
  });
  const money = (n: number) => formatMoney(n, c.currency, lng);
  const address = [c.address.street, c.address.number, c.address.complement, c.address.district, c.address.city, c.address.province, c.address.postal_code]
    .filter(Boolean)
    .join(", ");
  return (
    <div className="space-y-6">
      <PageHeader description={t("detail.description")} />
      {done ? (
        <p role="status" data-testid="adjusted" className="rounded-md border border-emerald-600/40 bg-emerald-600/10 p-3 text-sm">
          {t("adjust.done", { amount: money(done.amount), balance: money(done.balance) })}
        </p>
      ) : null}
      <div className="grid gap-6 md:grid-cols-2">
        <Card>
          <CardHeader>
            <CardTitle>{t("detail.account")}</CardTitle>
          </CardHeader>
          <CardContent>
            <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm">
              <dt className="text-muted-foreground">{t("detail.type")}</dt>
              <dd>{t(`types.${c.type}`)}</dd>
              <dt className="text-muted-foreground">{t("detail.status")}</dt>
              <dd>{t(`statuses.${c.status}`)}</dd>
              <dt className="text-muted-foreground">{t("detail.currency")}</dt>
              <dd>{c.currency}</dd>
              <dt className="text-muted-foreground">{t("detail.address")}</dt>
              <dd>{address || t("detail.noAddress")}</dd>
              <dt className="text-muted-foreground">{t("detail.balance")}</dt>
              <dd data-testid="customer-balance" className="font-medium">
                {money(c.balance)}
              </dd>
              <dt className="text-muted-foreground">{t("detail.creditLimit")}</dt>
              <dd>{money(c.credit_limit)}</dd>
              <dt className="text-muted-foreground">{t("detail.available")}</dt>
              <dd>{money(c.available)}</dd>
              <dt className="text-muted-foreground">{t("detail.plans")}</dt>
              <dd>{c.plans.length ? c.plans.map((p) => p.name).join(", ") : t("detail.noPlans")}</dd>
            </dl>
          </CardContent>
        </Card>
        {c.can_adjust ? (
          <Card>
            <CardHeader>
              <h2 className="leading-none font-semibold">{t("adjust.title")}</h2>
              <CardDescription>{t("adjust.description")}</CardDescription>
            </CardHeader>
            <CardContent>
              <Form method="post" {...getFormProps(form)} className="space-y-4">
                <CsrfInput />
                <input type="hidden" name="key" value={key ?? ""} />
                <FormErrors errors={form.errors} />
                <TextField field={fields.amount} label={t("adjust.amount")} description={t("adjust.amountHint")} autoComplete="off" />
                <TextareaField field={fields.reason} label={t("adjust.reason")} description={t("adjust.reasonHint")} />
                <Button type="submit" disabled={busy}>
                  {t("adjust.submit")}
                </Button>
              </Form>
            </CardContent>
          </Card>
        ) : (
          <p className="text-sm text-muted-foreground">{t("adjust.readOnly")}</p>
        )}
      </div>
      {products ? (
        <Card data-tab="products">
          <CardHeader>
            <CardTitle>{t("products:admin.tab")}</CardTitle>
            <CardDescription>{t("products:admin.description")}</CardDescription>
          </CardHeader>
          <CardContent className="space-y-4">
            {products.data.length ? (
              <ProductsTable products={products.data} lng={lng} href={(p) => `/admin/customers/${c.id}/products/${p.id}`} />
            ) : (
              <p className="text-sm text-muted-foreground">{t("products:admin.none")}</p>
            )}
            {products.next_cursor ? (
              <Link to={`?${new URLSearchParams({ products: products.next_cursor })}`} className="mr-4 inline-block text-sm underline">
                {t("products:more")}
              </Link>
            ) : null}
            <Link to={`/admin/customers/${c.id}/products/create`} className="inline-block text-sm font-medium underline">
              {t("products:admin.hire")}
            </Link>
          </CardContent>
        </Card>
      ) : null}
      <Card>
        <CardHeader>
          <CardTitle>{t("detail.entries")}</CardTitle>
        </CardHeader>
        <CardContent className="overflow-x-auto">
          {c.entries.length === 0 ? (
            <p className="text-sm text-muted-foreground">{t("detail.noEntries")}</p>
          ) : (
            <table className="w-full text-sm" data-testid="customer-entries">
              <thead>
                <tr className="text-left text-muted-foreground">
                  <th className="py-2">{t("detail.date")}</th>
                  <th>{t("detail.kind")}</th>
                  <th className="text-right">{t("detail.amount")}</th>
                  <th className="pl-4">{t("detail.reason")}</th>
                  <th>{t("detail.by")}</th>
                  <th>{t("detail.reference")}</th>
                </tr>
              </thead>
              <tbody>
                {c.entries.map((e) => (
                  <tr key={e.id} data-entry-kind={e.kind} className="border-t">
                    <td className="py-2">{formatDate(e.created_at, lng, true)}</td>
                    <td>{t(`kinds.${e.kind}`, { defaultValue: e.kind })}</td>
                    <td data-col="amount" className="text-right">
                      {money(e.amount)}
                    </td>
                    <td data-col="reason" className="pl-4">
                      {e.reason ?? ""}
                    </td>
                    <td data-col="by">{e.created_by_email ?? t("detail.system")}</td>
                    <td className="break-all text-muted-foreground">{e.reference?.startsWith("idempotency:") ? "" : (e.reference ?? "")}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </CardContent>
      </Card>
      <Card>
        <CardHeader>
          <CardTitle>{t("detail.invoices")}</CardTitle>
        </CardHeader>
        <CardContent className="overflow-x-auto">
          {c.invoices.length === 0 ? (
            <p className="text-sm text-muted-foreground">{t("detail.noInvoices")}</p>
          ) : (
            <table className="w-full text-sm">
              <thead>
                <tr className="text-left text-muted-foreground">
                  <th className="py-2">{t("detail.created")}</th>
                  <th>{t("detail.kind")}</th>
                  <th>{t("detail.status")}</th>
                  <th className="text-right">{t("detail.amount")}</th>
                  <th className="pl-4">{t("detail.due")}</th>
                </tr>
              </thead>
              <tbody>
                {c.invoices.map((i) => (
                  <tr key={i.id} className="border-t">
                    <td className="py-2">{formatDate(i.created_at, lng, true)}</td>
                    <td>{t(`billing:kinds.${i.kind}`, { defaultValue: i.kind })}</td>
                    <td>{t(`billing:statuses.${i.status}`, { defaultValue: i.status })}</td>
                    <td className="text-right">{formatMoney(i.amount, i.currency, lng)}</td>
                    <td className="pl-4">{formatDate(i.due_at, lng)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </CardContent>
      </Card>
      <Link to="/admin/customers" className="inline-block text-sm underline">
        {t("detail.back")}
      </Link>
    </div>
  );
}
