/** /settings: the current account's data, API token and plans, and the hub of settings groups. */
import { getFormProps, useForm } from "@conform-to/react";
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useNavigation, useRouteLoaderData } from "@remix-run/react";
import { useTranslation } from "~/lib/react-i18n";
import { AccountFields } from "~/components/accounts/account-fields";
import { currencyLabel } from "~/lib/currency.server";
import { i18next } from "~/lib/i18n.server";
import { accountSchema } from "~api/accounts/schemas";
import { updateAccount } from "~api/accounts/services";
import { accountSettings } from "~api/accounts/settings-hub";
import { CsrfInput, FormErrors } from "~/components/forms/fields";
import { AccountReadOnly } from "~/components/settings/account-read-only";
import { AccountPlans } from "~/components/settings/account-plans";
import { ApiTokenCard } from "~/components/settings/api-token";
import { SettingsHub } from "~/components/settings/settings-hub";
import { PageHeader } from "~/components/shell/page-header";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { orHttpError, requireRoute } from "~/lib/auth.server";
import { handleForm, type FormReply } from "~/lib/forms.server";
import type { Lng } from "~/lib/i18n";
import { redirectWithToast } from "~/lib/toast.server";
import type { RootData } from "~/root";
import { useLazyValidate } from "~/lib/lazy-validate";

export const handle = { crumb: "settings:account.title" };

export async function loader({ request }: LoaderFunctionArgs) {
  const ctx = await requireRoute(request);
  const lng = (await i18next.getLocale(request)) as Lng;
  const settings = await orHttpError(accountSettings(ctx));
  return json({ ...settings, currencies: settings.currencies.map((c) => ({ code: c.code, label: currencyLabel(c.code, c.name, lng) })) });
}

export async function action({ request }: ActionFunctionArgs) {
  const ctx = await requireRoute(request);
  return handleForm(request, accountSchema, async (value) => {
    await updateAccount(ctx, value);
    return redirectWithToast(request, "/settings", { type: "success", title: "settings:account.saved" });
  });
}

export default function Settings() {
  const data = useLoaderData<typeof loader>();
  const root = useRouteLoaderData<RootData>("root");
  const lng = (root?.lng ?? "pt-BR") as Lng;
  const { t } = useTranslation(["settings", "common"]);
  const refused = useActionData<FormReply>();
  return (
    <div className="space-y-8">
      <PageHeader description={t("account.description", { account: data.account.name })} />
      <div className="grid grid-cols-1 gap-6 lg:grid-cols-[minmax(0,2fr)_minmax(0,1fr)]">
        <Card id="account-settings">
          <CardHeader>
            <CardTitle>{t("account.details")}</CardTitle>
            <CardDescription>{data.editable ? t("account.editHint") : t("account.readOnly")}</CardDescription>
          </CardHeader>
          <CardContent>
            {data.editable ? (
              <AccountForm account={data.account} currencies={data.currencies} />
            ) : (
              <div className="space-y-4">
                {/* A refused post (e.g. a role that may only read) says why. */}
                <FormErrors errors={refused?.result.error?.[""]} />
                <AccountReadOnly account={data.account} />
              </div>
            )}
          </CardContent>
        </Card>
        <div className="space-y-6">
          {data.authToken ? <ApiTokenCard token={data.authToken} /> : null}
          <AccountPlans plans={data.plans} lng={lng} />
        </div>
      </div>
      <SettingsHub cards={data.hub} />
    </div>
  );
}

type AccountData = ReturnType<typeof useLoaderData<typeof loader>>["account"];

function AccountForm({ account, currencies }: { account: AccountData; currencies: Array<{ code: string; label: string }> }) {
  const { t } = useTranslation(["settings", "common"]);
  const last = useActionData<FormReply & { params?: Record<string, unknown> }>();
  const busy = useNavigation().state === "submitting";
  const [form, fields] = useForm({
    id: "account-form",
    lastResult: last?.result,
    defaultValue: {
      name: account.name,
      currency: account.currency,
      street: account.address.street ?? "",
      number: account.address.number ?? "",
      complement: account.address.complement ?? "",
      district: account.address.district ?? "",
      city: account.address.city ?? "",
      province: account.address.province ?? "",
      postalCode: account.address.postal_code ?? "",
    },
    onValidate: useLazyValidate(() => import("~api/accounts/schemas").then((m) => m.accountSchema)),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
  });
  return (
    <Form method="post" {...getFormProps(form)} className="space-y-6" data-testid="account-form">
      <CsrfInput />
      <FormErrors errors={form.errors} params={last?.params} />
      <AccountFields fields={fields} currencies={currencies} />
      <div className="flex justify-end">
        <Button type="submit" disabled={busy}>
          {t("common:actions.save")}
        </Button>
      </div>
    </Form>
  );
}
