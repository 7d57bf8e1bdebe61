/**
 * /admin/customers/{customerId} (issue 18, ADR 046): one customer — its account, balance, credit
 * limit and what may be spent, plans held, last invoices and the last entries of its book with who
 * made them and why — and, for the platform's staff only, "Adjust balance": an amount in reais
 * (positive credits, negative debits: "50,00", "-12,34") and a reason, one `adjustment` posting of
 * the ledger. The form carries an idempotency key made with the page, so posting it twice (a double
 * press, a resubmission) adjusts once. A plain form: works without JavaScript; on success the page
 * says what was adjusted and shows the new balance.
 *
 * Its administration (issue 23, ADR 063), for the staff and the customer's reseller: edit its names
 * and billing e-mail, suspend or activate it, delete it (confirmed in a disclosure), attach a person
 * with a role (or invite them); and tabs as plain links (?tab=shortcodes|plans|products|invoices):
 * its short codes and WhatsApp numbers, plans, products (the default) and last invoices. Every form
 * posts an `intent` (the adjustment none) and works without JavaScript.
 */
import { randomUUID } from "node:crypto";
import { getFormProps, useForm } from "@conform-to/react";
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { json, redirect } from "@remix-run/node";
import type { ShouldRevalidateFunction } from "@remix-run/react";
import { Form, Link, useActionData, useLoaderData, useNavigation, useRouteLoaderData } from "@remix-run/react";
import { useTranslation } from "~/lib/react-i18n";
import { adjustCustomerBalance, getCustomer } from "~api/customers/customers";
import { attachUser, deleteCustomer, isStaff, listCustomerNumbers, listCustomerPeople, listCustomerShortCodes, updateCustomer } from "~api/customers/admin";
import { ATTACH_ROLES } from "~api/customers/constants";
import { SelectField } from "~/components/forms/controls";
import { ConfirmDelete } from "~/components/forms/confirm-delete";
import { IntentForm } from "~/components/forms/intent-form";
import { redirectWithToast } from "~/lib/toast.server";
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
import { adjustBalanceSchema, attachFormSchema, customerIntentSchema, editCustomerFormSchema } from "~/forms/admin-customer";
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
  const tab = (TABS as readonly string[]).includes(url.searchParams.get("tab") ?? "") ? (url.searchParams.get("tab") as Tab) : "products";
  // The customer's products (ADR 048): the platform's staff, who hire and change them.
  const products =
    data.can_adjust && tab === "products" ? await orHttpError(listCustomerProducts(ctx, data.id, { cursor: url.searchParams.get("products") ?? undefined, limit: "50" })) : null;
  const [people, shortCodes, numbers] = await Promise.all([
    orHttpError(listCustomerPeople(ctx, data.id)),
    tab === "shortcodes" ? orHttpError(listCustomerShortCodes(ctx, data.id)) : null,
    tab === "shortcodes" ? orHttpError(listCustomerNumbers(ctx, data.id)) : null,
  ]);
  return json(
    {
      customer: data,
      done,
      products,
      tab,
      people,
      shortCodes: shortCodes?.data ?? null,
      numbers: numbers?.data ?? null,
      staff: isStaff(ctx),
      key: data.can_adjust ? randomUUID() : null,
    },
    { headers: { "Cache-Control": "private, no-store" } },
  );
}

const TABS = ["shortcodes", "plans", "products", "invoices"] as const;
type Tab = (typeof TABS)[number];

/**
 * A refused adjustment does not reload the page's data: a reload would bring a new key, so a new
 * form, and clear what the person is already typing to correct it (nothing was written anyway).
 */
export const shouldRevalidate: ShouldRevalidateFunction = ({ actionResult, defaultShouldRevalidate }) =>
  (actionResult as FormReply | undefined)?.result?.status === "error" ? false : defaultShouldRevalidate;

export async function action({ request, params }: ActionFunctionArgs) {
  const ctx = await requireRoute(request);
  const id = params.customerId ?? "";
  const intent = String((await request.clone().formData()).get("intent") ?? "");
  const here = `/admin/customers/${id}`;
  if (intent === "save") {
    return handleForm(request, editCustomerFormSchema, async ({ intent: _, ...v }) => {
      await updateCustomer(ctx, id, v);
      return redirectWithToast(request, here, { type: "success", title: "customers:manage.saved" });
    });
  }
  if (intent === "suspend" || intent === "activate" || intent === "delete") {
    return handleForm(request, customerIntentSchema, async (v) => {
      if (v.intent === "delete") {
        await deleteCustomer(ctx, id);
        return redirectWithToast(request, "/admin/customers", { type: "success", title: "customers:manage.deleted" });
      }
      await updateCustomer(ctx, id, { status: v.intent === "suspend" ? "suspended" : "active" });
      return redirectWithToast(request, here, { type: "success", title: v.intent === "suspend" ? "customers:manage.suspendedDone" : "customers:manage.activatedDone" });
    });
  }
  if (intent === "attach") {
    return handleForm(request, attachFormSchema, async ({ email, role }) => {
      const { data } = await attachUser(ctx, id, { email, role });
      return redirectWithToast(request, here, { type: "success", title: data.outcome === "invited" ? "customers:people.invited" : "customers:people.attached" });
    });
  }
  return handleForm(request, adjustBalanceSchema, async ({ amount, reason, key }) => {
    const { data } = await adjustCustomerBalance(ctx, id, { amount, reason }, key);
    return redirect(`/admin/customers/${id}?adjusted=${data.amount}&balance=${data.balance_after}`);
  });
}

export default function Customer() {
  const { customer: c, done, products, key, tab, people, shortCodes, numbers, staff } = useLoaderData<typeof loader>();
  const last = useActionData<FormReply>();
  const busy = useNavigation().state === "submitting";
  const lng = (useRouteLoaderData<RootData>("root")?.lng ?? "pt-BR") as Lng;
  const { t } = useTranslation(["customers", "billing", "products"]);
  const intent = last?.result?.initialValue?.intent;
  const errorsOf = (name: string) => (last?.result?.error?.[name] as string[] | undefined) ?? null;
  const [form, fields] = useForm({
    // A new form (empty fields) with every new page: after an adjustment nothing is left filled in to press again.
    id: `adjust-${key ?? "none"}`,
    lastResult: intent ? undefined : last?.result,
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
              <dt className="text-muted-foreground">{t("fields.corporateName")}</dt>
              <dd data-testid="customer-corporate-name">{c.corporate_name || t("detail.notGiven")}</dd>
              <dt className="text-muted-foreground">{t("fields.billingEmail")}</dt>
              <dd data-testid="customer-billing-email">{c.billing_email || t("detail.notGiven")}</dd>
              <dt className="text-muted-foreground">{t("detail.type")}</dt>
              <dd>{t(`types.${c.type}`)}</dd>
              <dt className="text-muted-foreground">{t("detail.status")}</dt>
              <dd data-testid="customer-status">{t(`statuses.${c.status}`)}</dd>
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
      <div className="grid gap-6 md:grid-cols-2">
        <ManageCard c={c} intent={intent} errorsOf={errorsOf} />
        <PeopleCard people={people} intent={intent} />
      </div>
      <nav aria-label={t("tabs.label")} className="flex flex-wrap gap-2 border-b pb-2 text-sm">
        {TABS.map((name) => (
          <Link
            key={name}
            to={`?tab=${name}`}
            aria-current={tab === name ? "page" : undefined}
            className={tab === name ? "rounded-md bg-muted px-3 py-1 font-medium" : "rounded-md px-3 py-1 underline"}
          >
            {t(`tabs.${name}`)}
          </Link>
        ))}
      </nav>
      {tab === "shortcodes" ? <ShortCodesTab customerId={c.id} shortCodes={shortCodes ?? []} numbers={numbers ?? []} staff={staff} lng={lng} /> : null}
      {tab === "plans" ? <PlansTab customerId={c.id} plans={c.plans} staff={staff} /> : null}
      {tab === "products" && products ? (
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
      {tab === "invoices" ? (
        <Card data-tab="invoices">
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
      <Link to="/admin/customers" className="inline-block text-sm underline">
        {t("detail.back")}
      </Link>
    </div>
  );
}

type CustomerData = ReturnType<typeof useLoaderData<typeof loader>>;

/** Edit (names, billing e-mail), suspend or activate, delete: the staff and the customer's reseller. */
function ManageCard({ c, intent, errorsOf }: { c: CustomerData["customer"]; intent: unknown; errorsOf: (name: string) => string[] | null }) {
  const last = useActionData<FormReply>();
  const busy = useNavigation().state === "submitting";
  const { t } = useTranslation("customers");
  const [form, fields] = useForm({
    id: `customer-edit-${c.id}`,
    lastResult: intent === "save" ? last?.result : undefined,
    defaultValue: { name: c.name, corporate_name: c.corporate_name, billing_email: c.billing_email },
    onValidate: useLazyValidate(() => import("~/forms/admin-customer").then((m) => m.editCustomerFormSchema)),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
  });
  const suspended = c.status === "suspended";
  return (
    <Card data-card="manage">
      <CardHeader>
        <h2 className="leading-none font-semibold">{t("manage.title")}</h2>
        <CardDescription>{t("manage.description")}</CardDescription>
      </CardHeader>
      <CardContent className="space-y-4">
        <Form method="post" {...getFormProps(form)} className="space-y-4">
          <CsrfInput />
          <input type="hidden" name="intent" value="save" />
          <FormErrors errors={form.errors} />
          <TextField field={fields.name} label={t("fields.name")} autoComplete="off" />
          <TextField field={fields.corporate_name} label={t("fields.corporateName")} autoComplete="off" />
          <TextField field={fields.billing_email} label={t("fields.billingEmail")} type="email" autoComplete="off" />
          <Button type="submit" disabled={busy}>
            {t("manage.save")}
          </Button>
        </Form>
        <div className="flex flex-wrap items-start gap-3 border-t pt-4">
          <IntentForm intent={suspended ? "activate" : "suspend"}>
            <Button type="submit" variant="outline" size="sm" disabled={busy}>
              {suspended ? t("manage.activate") : t("manage.suspend")}
            </Button>
          </IntentForm>
          <ConfirmDelete
            id={c.id}
            summary={t("manage.delete.summary")}
            label={t("manage.delete.label", { name: c.name })}
            body={t("manage.delete.body", { name: c.name })}
            confirm={t("manage.delete.confirm")}
            errors={intent === "delete" ? [...(errorsOf("form") ?? []), ...(errorsOf("") ?? [])] : null}
          />
        </div>
        <p className="text-sm text-muted-foreground">{suspended ? t("manage.suspendedHint") : t("manage.suspendHint")}</p>
      </CardContent>
    </Card>
  );
}

/** Who is in the customer, and the attach form: a person with a login joins at once, anyone else is invited by e-mail. */
function PeopleCard({ people, intent }: { people: CustomerData["people"]; intent: unknown }) {
  const last = useActionData<FormReply>();
  const busy = useNavigation().state === "submitting";
  const { t } = useTranslation("customers");
  const [form, fields] = useForm({
    id: "customer-attach",
    lastResult: intent === "attach" ? last?.result : undefined,
    defaultValue: { role: "owner" },
    onValidate: useLazyValidate(() => import("~/forms/admin-customer").then((m) => m.attachFormSchema)),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
  });
  return (
    <Card data-card="people">
      <CardHeader>
        <h2 className="leading-none font-semibold">{t("people.title")}</h2>
        <CardDescription>{t("people.description")}</CardDescription>
      </CardHeader>
      <CardContent className="space-y-4">
        {people.people.length ? (
          <ul className="space-y-1 text-sm" data-testid="customer-people">
            {people.people.map((p) => (
              <li key={p.user_id} data-person={p.email}>
                {p.name ? `${p.name} · ` : ""}
                {p.email} — {t(`people.roles.${p.role}`, { defaultValue: p.role })}
              </li>
            ))}
          </ul>
        ) : (
          <p className="text-sm text-muted-foreground">{t("people.none")}</p>
        )}
        {people.invitations.length ? (
          <ul className="space-y-1 text-sm text-muted-foreground" data-testid="customer-invitations">
            {people.invitations.map((i) => (
              <li key={i.id} data-invited={i.email}>
                {t("people.pending", { email: i.email, role: t(`people.roles.${i.role}`, { defaultValue: i.role }) })}
              </li>
            ))}
          </ul>
        ) : null}
        <Form method="post" {...getFormProps(form)} className="space-y-4">
          <CsrfInput />
          <input type="hidden" name="intent" value="attach" />
          <FormErrors errors={form.errors} />
          <TextField field={fields.email} label={t("people.email")} type="email" autoComplete="off" />
          <SelectField field={fields.role} label={t("people.role")} options={ATTACH_ROLES.map((r) => ({ value: r, label: t(`people.roles.${r}`) }))} />
          <Button type="submit" disabled={busy}>
            {t("people.submit")}
          </Button>
        </Form>
      </CardContent>
    </Card>
  );
}

/** The short codes tab: the customer's short codes and WhatsApp numbers (its "numbers"), each opening its page. */
function ShortCodesTab({
  customerId,
  shortCodes,
  numbers,
  staff,
  lng,
}: {
  customerId: string;
  shortCodes: NonNullable<CustomerData["shortCodes"]>;
  numbers: NonNullable<CustomerData["numbers"]>;
  staff: boolean;
  lng: Lng;
}) {
  const { t } = useTranslation("customers");
  return (
    <div className="space-y-6">
      <Card data-tab="shortcodes">
        <CardHeader>
          <CardTitle>{t("shortCodes.title")}</CardTitle>
          <CardDescription>{t("shortCodes.description")}</CardDescription>
        </CardHeader>
        <CardContent className="space-y-4 overflow-x-auto">
          {shortCodes.length ? (
            <table className="w-full text-sm">
              <thead>
                <tr className="text-left text-muted-foreground">
                  <th className="py-2">{t("shortCodes.number")}</th>
                  <th>{t("shortCodes.nickname")}</th>
                  <th>{t("shortCodes.deliverability")}</th>
                  <th>{t("shortCodes.status")}</th>
                  <th className="text-right">{t("shortCodes.monthlyPrice")}</th>
                  <th />
                </tr>
              </thead>
              <tbody>
                {shortCodes.map((s) => (
                  <tr key={s.id} data-short-code={s.number} className="border-t">
                    <td className="py-2 font-mono">{s.number}</td>
                    <td>{s.nickname}</td>
                    <td>{s.deliverability.join(", ")}</td>
                    <td>{t(`shortCodes.statuses.${s.status}`)}</td>
                    <td className="text-right">{formatMoney(s.monthly_price, "BRL", lng)}</td>
                    <td className="pl-4 text-right">
                      <Link to={`/admin/customers/${customerId}/short-codes/${s.id}`} className="underline">
                        {t("shortCodes.open")}
                      </Link>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          ) : (
            <p className="text-sm text-muted-foreground">{t("shortCodes.none")}</p>
          )}
          {staff ? (
            <Link to={`/admin/customers/${customerId}/short-codes/create`} className="inline-block text-sm font-medium underline">
              {t("shortCodes.create")}
            </Link>
          ) : null}
        </CardContent>
      </Card>
      <Card data-tab="numbers">
        <CardHeader>
          <CardTitle>{t("numbers.title")}</CardTitle>
          <CardDescription>{t("numbers.description")}</CardDescription>
        </CardHeader>
        <CardContent className="overflow-x-auto">
          {numbers.length ? (
            <table className="w-full text-sm">
              <thead>
                <tr className="text-left text-muted-foreground">
                  <th className="py-2">{t("numbers.number")}</th>
                  <th>{t("numbers.name")}</th>
                  <th>{t("numbers.quality")}</th>
                  <th className="text-right">{t("numbers.monthlyPrice")}</th>
                  <th />
                </tr>
              </thead>
              <tbody>
                {numbers.map((n) => (
                  <tr key={n.id} data-number={n.id} className="border-t">
                    <td className="py-2">{n.display_phone_number || n.phone_number_id}</td>
                    <td>{n.verified_name}</td>
                    <td>{n.quality_rating}</td>
                    <td className="text-right">{formatMoney(n.monthly_price, "BRL", lng)}</td>
                    <td className="pl-4 text-right">
                      <Link to={`/admin/customers/${customerId}/numbers/${n.id}`} className="underline">
                        {t("numbers.open")}
                      </Link>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          ) : (
            <p className="text-sm text-muted-foreground">{t("numbers.none")}</p>
          )}
        </CardContent>
      </Card>
    </div>
  );
}

/** The plans tab: the plans the customer holds now, each opening its page; "Assign a plan" (the plan pages are another screen's). */
function PlansTab({ customerId, plans, staff }: { customerId: string; plans: CustomerData["customer"]["plans"]; staff: boolean }) {
  const { t } = useTranslation("customers");
  return (
    <Card data-tab="plans">
      <CardHeader>
        <CardTitle>{t("plans.title")}</CardTitle>
        <CardDescription>{t("plans.description")}</CardDescription>
      </CardHeader>
      <CardContent className="space-y-4">
        {plans.length ? (
          <ul className="space-y-1 text-sm">
            {plans.map((p) => (
              <li key={`${p.service}-${p.id}`} data-plan={p.id}>
                <Link to={`/admin/customers/${customerId}/plans/${p.id}`} className="underline">
                  {p.name}
                </Link>{" "}
                <span className="text-muted-foreground">({p.service})</span>
              </li>
            ))}
          </ul>
        ) : (
          <p className="text-sm text-muted-foreground">{t("detail.noPlans")}</p>
        )}
        {staff ? (
          <Link to={`/admin/customers/${customerId}/plans/create`} className="inline-block text-sm font-medium underline">
            {t("plans.create")}
          </Link>
        ) : null}
      </CardContent>
    </Card>
  );
}
