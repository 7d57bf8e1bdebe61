import { getFormProps, useForm } from "@conform-to/react";
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { json, redirect } from "@remix-run/node";
import { Form, Link, useActionData, useRouteLoaderData, useSearchParams } from "@remix-run/react";
import { useTranslation } from "~/lib/react-i18n";
import { loginSchema } from "~api/auth/schemas";
import { CsrfInput, FormErrors, TextField } from "~/components/forms/fields";
import { Button } from "~/components/ui/button";
import { optionalUserId } from "~/lib/auth.server";
import { documentLoad, NO_HYDRATION } from "~/lib/hydration";
import { authenticator } from "~/lib/authenticator.server";
import { handleForm, type FormReply } from "~/lib/forms.server";
import { startSession } from "~/lib/login.server";
import type { RootData } from "~/root";

/** Served without React in the browser (ADR 051): a plain form, its errors rendered by the server. */
export const handle = { crumb: "auth:login.title", ...NO_HYDRATION };
export const clientLoader = documentLoad;

export async function loader({ request }: LoaderFunctionArgs) {
  if (await optionalUserId(request)) return redirect("/");
  return json({});
}

export async function action({ request }: ActionFunctionArgs) {
  const redirectTo = new URL(request.url).searchParams.get("redirectTo") ?? undefined;
  const forStrategy = request.clone();
  return handleForm(request, loginSchema, async () => {
    const { user, twoFactorRequired } = await authenticator().authenticate("form", forStrategy);
    return startSession(request, user, { twoFactorRequired, redirectTo });
  });
}

export default function Login() {
  const { t } = useTranslation(["auth", "common"]);
  const last = useActionData<FormReply & { params?: Record<string, unknown> }>();
  const root = useRouteLoaderData<RootData>("root");
  const [params] = useSearchParams();
  const [form, fields] = useForm<{ email: string; password: string }>({ lastResult: last?.result });
  const notVerified = form.errors?.includes("errors.EMAIL_NOT_VERIFIED");
  return (
    <div className="space-y-6">
      <div className="space-y-1">
        <h1 className="text-2xl font-semibold">{t("login.title")}</h1>
        <p className="text-sm text-muted-foreground">{t("login.subtitle")}</p>
      </div>
      <Form method="post" {...getFormProps(form)} action={params.toString() ? `?${params}` : undefined} className="space-y-4">
        <CsrfInput />
        <FormErrors errors={form.errors} params={last?.params} />
        {notVerified ? (
          <p className="text-sm">
            {t("login.notVerified")}{" "}
            <Link className="text-primary underline" to="/email-verify">
              {t("login.resend")}
            </Link>
          </p>
        ) : null}
        <TextField field={fields.email} label={t("login.email")} type="email" autoComplete="username" />
        <TextField field={fields.password} label={t("login.password")} type="password" autoComplete="current-password" />
        <div className="flex justify-end text-sm">
          <Link to="/reset-password" className="text-primary hover:underline">
            {t("login.forgot")}
          </Link>
        </div>
        <Button type="submit" className="w-full">
          {t("login.submit")}
        </Button>
      </Form>
      {root?.env.googleEnabled || root?.env.facebookEnabled ? (
        <div className="space-y-2">
          <p className="text-center text-xs uppercase text-muted-foreground">{t("login.or")}</p>
          {root.env.googleEnabled ? (
            <Form method="post" action="/auth/google">
              <CsrfInput />
              <Button variant="outline" className="w-full" type="submit">
                {t("login.google")}
              </Button>
            </Form>
          ) : null}
          {root.env.facebookEnabled ? (
            <Form method="post" action="/auth/facebook">
              <CsrfInput />
              <Button variant="outline" className="w-full" type="submit">
                {t("login.facebook")}
              </Button>
            </Form>
          ) : null}
        </div>
      ) : null}
      <div className="space-y-1 text-center text-sm">
        <p>
          {t("login.noAccount")}{" "}
          <Link to="/register" className="text-primary hover:underline">
            {t("login.register")}
          </Link>
        </p>
        <p>
          <Link to="/experience" className="text-primary hover:underline">
            {t("login.trial")}
          </Link>
        </p>
      </div>
    </div>
  );
}
