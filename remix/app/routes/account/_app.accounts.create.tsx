/** /accounts/create: a new account owned by the person, which becomes the current one. */
import { getFormProps, useForm } from "@conform-to/react";
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { json, redirect } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { useTranslation } from "~/lib/react-i18n";
import { accountSchema } from "~api/accounts/schemas";
import { createAccount, listCurrencies, switchAccount } from "~api/accounts/services";
import { AccountFields } from "~/components/accounts/account-fields";
import { currencyLabel } from "~/lib/currency.server";
import { CsrfInput, FormErrors } from "~/components/forms/fields";
import { PageHeader } from "~/components/shell/page-header";
import { Button } from "~/components/ui/button";
import { Card, CardContent } from "~/components/ui/card";
import { requireRoute } from "~/lib/auth.server";
import { handleForm, type FormReply } from "~/lib/forms.server";
import type { Lng } from "~/lib/i18n";
import { i18next } from "~/lib/i18n.server";
import { commitSession, getSession } from "~/lib/session.server";
import { useLazyValidate } from "~/lib/lazy-validate";

export const handle = { crumb: "accounts:create.title" };

export async function loader({ request }: LoaderFunctionArgs) {
  await requireRoute(request);
  const lng = (await i18next.getLocale(request)) as Lng;
  const currencies = await listCurrencies();
  return json({ currencies: currencies.map((c) => ({ code: c.code, label: currencyLabel(c.code, c.name, lng) })) });
}

export async function action({ request }: ActionFunctionArgs) {
  const ctx = await requireRoute(request);
  return handleForm(request, accountSchema, async (value) => {
    const account = await createAccount(ctx, value);
    // The new account becomes the current one, exactly as POST /accounts/switch does.
    const actor = await switchAccount(ctx, account.id);
    const session = await getSession(request);
    session.set("accountId", actor.accountId);
    session.flash("toast", { type: "success", title: "accounts:create.created", params: { name: account.name } });
    return redirect("/", { headers: { "Set-Cookie": await commitSession(session) } });
  });
}

export default function CreateAccount() {
  const { currencies } = useLoaderData<typeof loader>();
  const last = useActionData<FormReply>();
  const busy = useNavigation().state === "submitting";
  const { t } = useTranslation(["accounts", "common"]);
  const [form, fields] = useForm({
    lastResult: last?.result,
    defaultValue: { currency: "BRL" },
    onValidate: useLazyValidate(() => import("~api/accounts/schemas").then((m) => m.accountSchema)),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
  });
  return (
    <div className="space-y-6">
      <PageHeader description={t("create.description")} />
      <Card className="max-w-2xl">
        <CardContent>
          <Form method="post" {...getFormProps(form)} className="space-y-6">
            <CsrfInput />
            <FormErrors errors={form.errors} />
            <AccountFields fields={fields} currencies={currencies} />
            <div className="flex flex-wrap gap-2">
              <Button type="submit" disabled={busy}>
                {t("create.submit")}
              </Button>
              <Button asChild variant="ghost">
                <Link to="/accounts">{t("common:actions.cancel")}</Link>
              </Button>
            </div>
          </Form>
        </CardContent>
      </Card>
    </div>
  );
}
