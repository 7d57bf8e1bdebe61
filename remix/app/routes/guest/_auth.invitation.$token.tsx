/** /invitation/{token}: a new person creates their login; someone with a login signs in and accepts. */
import { getFormProps, useForm } from "@conform-to/react";
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useParams } from "@remix-run/react";
import { useTranslation } from "~/lib/react-i18n";
import { acceptInvitationSchema } from "~api/auth/schemas";
import { isAppError } from "~api/lib/errors";
import { acceptInvitation, findInvitation } from "~api/users/services";
import { User } from "../../../../models";
import { AuthMessage } from "~/components/auth/message";
import { CsrfInput, FormErrors, TextField } from "~/components/forms/fields";
import { Button } from "~/components/ui/button";
import { optionalUserId, requestCtx } from "~/lib/auth.server";
import { handleForm, type FormReply } from "~/lib/forms.server";
import { startSession } from "~/lib/login.server";
import { redirectWithToast } from "~/lib/toast.server";
import { commitSession, getSession } from "~/lib/session.server";
import { useLazyValidate } from "~/lib/lazy-validate";

export const handle = { crumb: "auth:invitation.title" };

export async function loader({ request, params }: LoaderFunctionArgs) {
  try {
    const inv = await findInvitation(params.token ?? "");
    const userId = await optionalUserId(request);
    const me = userId ? await User.findByPk(userId, { attributes: ["email"] }) : null;
    return json({ valid: true as const, ...inv, signedInAsInvitee: Boolean(me && me.email.toLowerCase() === inv.email.toLowerCase()) });
  } catch (e) {
    if (isAppError(e)) return json({ valid: false as const }, { status: 404 });
    throw e;
  }
}

export async function action({ request, params }: ActionFunctionArgs) {
  const token = params.token ?? "";
  const userId = await optionalUserId(request);
  const intent = (await request.clone().formData()).get("intent");
  if (intent === "join") {
    return handleForm(request, null, async () => {
      const user = await acceptInvitation(requestCtx(request), { token }, userId);
      const session = await getSession(request);
      session.set("accountId", user.currentAccountId ?? undefined);
      return redirectWithToast(request, "/", { type: "success", title: "auth:invitation.accepted" }, { headers: { "Set-Cookie": await commitSession(session) } });
    });
  }
  return handleForm(request, acceptInvitationSchema, async (value) => {
    const user = await acceptInvitation(requestCtx(request), value);
    return startSession(request, user, { twoFactorRequired: false });
  });
}

export default function Invitation() {
  const data = useLoaderData<typeof loader>();
  const { token } = useParams();
  const { t } = useTranslation(["auth", "errors", "common"]);
  const last = useActionData<FormReply>();
  const [form, fields] = useForm({
    lastResult: last?.result,
    onValidate: useLazyValidate(() => import("~api/auth/schemas").then((m) => m.acceptInvitationSchema)),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
  });
  if (!data.valid) return <AuthMessage tone="error" title={t("invitation.title")} body={t("errors:INVITATION_INVALID")} action={{ to: "/login", label: t("success.login") }} />;
  const intro = t("invitation.body", { account: data.accountName, role: t(`common:roles.${data.role}`) });
  if (data.existingUser) {
    return (
      <div className="space-y-4">
        <h1 className="text-2xl font-semibold">{t("invitation.title")}</h1>
        <p>{intro}</p>
        <FormErrors errors={form.errors} />
        {data.signedInAsInvitee ? (
          <Form method="post">
            <CsrfInput />
            <input type="hidden" name="intent" value="join" />
            <Button type="submit" className="w-full">
              {t("invitation.accept")}
            </Button>
          </Form>
        ) : (
          <>
            <p className="text-sm text-muted-foreground">{t("invitation.existing", { email: data.email })}</p>
            <Button asChild className="w-full">
              <Link to={`/login?redirectTo=${encodeURIComponent(`/invitation/${token}`)}`}>{t("invitation.loginToAccept")}</Link>
            </Button>
          </>
        )}
      </div>
    );
  }
  return (
    <div className="space-y-4">
      <h1 className="text-2xl font-semibold">{t("invitation.title")}</h1>
      <p>{intro}</p>
      <p className="text-sm text-muted-foreground">{t("invitation.create")}</p>
      <Form method="post" {...getFormProps(form)} className="space-y-4">
        <CsrfInput />
        <input type="hidden" name="token" value={token} />
        <FormErrors errors={form.errors} />
        <p className="text-sm">
          <span className="text-muted-foreground">{t("login.email")}:</span> <strong>{data.email}</strong>
        </p>
        <div className="grid gap-4 sm:grid-cols-2">
          <TextField field={fields.firstName} label={t("register.firstName")} autoComplete="given-name" />
          <TextField field={fields.lastName} label={t("register.lastName")} autoComplete="family-name" />
        </div>
        <TextField field={fields.password} label={t("register.password")} type="password" autoComplete="new-password" description={t("register.passwordHint")} />
        <TextField field={fields.confirmPassword} label={t("register.confirmPassword")} type="password" autoComplete="new-password" />
        <Button type="submit" className="w-full">
          {t("invitation.accept")}
        </Button>
      </Form>
    </div>
  );
}
