/** /users/invite: send an invitation e-mail with a role (owner and admin). */
import { getFormProps, useForm } from "@conform-to/react";
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { useTranslation } from "~/lib/react-i18n";
import { INVITE_ROLES } from "../../../../models/constants";
import { canWrite } from "~api/policy/policy";
import { inviteSchema } from "~api/users/schemas";
import { inviteUser } from "~api/users/services";
import { CsrfInput, FormErrors, TextField } from "~/components/forms/fields";
import { SelectField } from "~/components/forms/controls";
import { PageHeader } from "~/components/shell/page-header";
import { Button } from "~/components/ui/button";
import { Card, CardContent } from "~/components/ui/card";
import { requireRoute } from "~/lib/auth.server";
import { handleForm, type FormReply } from "~/lib/forms.server";
import { redirectWithToast } from "~/lib/toast.server";
import { useLazyValidate } from "~/lib/lazy-validate";

export const handle = { crumb: "users:invite.title" };

export async function loader({ request }: LoaderFunctionArgs) {
  const ctx = await requireRoute(request);
  return json({ canManage: canWrite(ctx.actor, "users") });
}

export async function action({ request }: ActionFunctionArgs) {
  const ctx = await requireRoute(request);
  return handleForm(request, inviteSchema, async (value) => {
    await inviteUser(ctx, value);
    return redirectWithToast(request, "/users", { type: "success", title: "users:invite.sent", params: { email: value.email } });
  });
}

export default function InviteUser() {
  const { canManage } = useLoaderData<typeof loader>();
  const last = useActionData<FormReply>();
  const busy = useNavigation().state === "submitting";
  const { t } = useTranslation(["users", "common", "errors"]);
  const [form, fields] = useForm({
    lastResult: last?.result,
    defaultValue: { role: "agent" },
    onValidate: useLazyValidate(() => import("~api/users/schemas").then((m) => m.inviteSchema)),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
  });
  return (
    <div className="space-y-6">
      <PageHeader description={t("invite.description")} />
      <Card className="max-w-xl">
        <CardContent>
          <Form method="post" {...getFormProps(form)} className="space-y-4">
            <CsrfInput />
            {!canManage ? <FormErrors errors={["errors.NO_PERMISSION_EDIT_USERS"]} /> : <FormErrors errors={form.errors} />}
            <fieldset disabled={!canManage} className="space-y-4">
              <TextField field={fields.email} label={t("invite.email")} type="email" autoComplete="off" />
              <SelectField
                field={fields.role}
                label={t("invite.role")}
                description={t("invite.roleHint")}
                options={INVITE_ROLES.map((r) => ({ value: r, label: t(`common:roles.${r}`) }))}
              />
              <div className="flex flex-wrap gap-2">
                <Button type="submit" disabled={busy}>
                  {t("invite.submit")}
                </Button>
                <Button asChild variant="ghost">
                  <Link to="/users">{t("common:actions.cancel")}</Link>
                </Button>
              </div>
            </fieldset>
          </Form>
        </CardContent>
      </Card>
    </div>
  );
}
