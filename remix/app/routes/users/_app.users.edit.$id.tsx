/** /users/edit/{id}: a person's name, mobile, role, agent flag and department; remove from the account. */
import { getFormProps, useForm } from "@conform-to/react";
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { useTranslation } from "~/lib/react-i18n";
import { z } from "~api/lib/zod";
import { ROLES } from "../../../../models/constants";
import { listDepartments } from "~api/departments/services";
import { canWrite } from "~api/policy/policy";
import { updateUserSchema } from "~api/users/schemas";
import { getUser, removeUser, updateUser, usesDepartments } from "~api/users/services";
import { CsrfInput, FormErrors, TextField } from "~/components/forms/fields";
import { CheckboxField, SelectField } from "~/components/forms/controls";
import { PageHeader } from "~/components/shell/page-header";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader } from "~/components/ui/card";
import { Input } from "~/components/ui/input";
import { FormField } from "~/components/ui/form-field";
import { orHttpError, requireRoute } from "~/lib/auth.server";
import { handleForm, type FormReply } from "~/lib/forms.server";
import { redirectWithToast } from "~/lib/toast.server";
import { useLazyValidate } from "~/lib/lazy-validate";

type LoaderData = { user?: { firstName: string; lastName: string } } | undefined;

export const handle = {
  crumb: (data: unknown) => {
    const u = (data as LoaderData)?.user;
    return u ? { key: "users:edit.title", params: { name: `${u.firstName} ${u.lastName}`.trim() } } : "users:edit.fallbackTitle";
  },
};

const removeSchema = z.object({ intent: z.literal("remove") });

export async function loader({ request, params }: LoaderFunctionArgs) {
  const ctx = await requireRoute(request);
  const user = await orHttpError(getUser(ctx, params.id ?? ""));
  const departments = usesDepartments(ctx) ? await listDepartments(ctx) : null;
  return json({
    user,
    departments: departments?.map((d) => ({ id: d.id, name: d.name, status: d.status })) ?? null,
    managesOwners: canWrite(ctx.actor, "owners"),
    canManage: canWrite(ctx.actor, "users"),
    self: ctx.actor.userId === user.id,
  });
}

export async function action({ request, params }: ActionFunctionArgs) {
  const ctx = await requireRoute(request);
  const id = params.id ?? "";
  // Another account's person (or no person) is not found, whatever the intent.
  await orHttpError(getUser(ctx, id));
  const intent = (await request.clone().formData()).get("intent");
  if (intent === "remove") {
    return handleForm(request, removeSchema, async () => {
      const user = await getUser(ctx, id);
      await removeUser(ctx, id);
      const name = `${user.firstName} ${user.lastName}`.trim();
      // Removing yourself leaves this account: go home (the guard picks another account or signs out).
      return redirectWithToast(request, user.id === ctx.actor.userId ? "/" : "/users", { type: "success", title: "users:edit.remove.removed", params: { name } });
    });
  }
  return handleForm(request, updateUserSchema, async (value) => {
    await updateUser(ctx, id, value);
    return redirectWithToast(request, "/users", { type: "success", title: "users:edit.saved" });
  });
}

export default function EditUser() {
  const { user, departments, managesOwners, canManage } = useLoaderData<typeof loader>();
  const last = useActionData<FormReply>();
  const busy = useNavigation().state === "submitting";
  const { t } = useTranslation(["users", "common", "errors"]);
  const lastIntent = (last?.result.initialValue as Record<string, unknown> | undefined)?.intent;
  const removeReply = lastIntent === "remove" ? last : undefined;
  const [form, fields] = useForm({
    id: `user-${user.id}`,
    lastResult: lastIntent === "remove" ? undefined : last?.result,
    defaultValue: {
      firstName: user.firstName,
      lastName: user.lastName,
      mobile: user.mobile ?? "",
      role: user.role,
      isAgent: user.isAgent ? "on" : undefined,
      departmentId: user.departmentId ?? "",
    },
    onValidate: useLazyValidate(() => import("~api/users/schemas").then((m) => m.updateUserSchema)),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
  });
  const name = `${user.firstName} ${user.lastName}`.trim();
  // Only an owner may touch an owner's role or hand out the owner role.
  const roleLocked = user.role === "owner" && !managesOwners;
  const roles = ROLES.filter((r) => r !== "owner" || managesOwners || user.role === "owner");
  const departmentOptions = departments
    ? [
        { value: "", label: t("edit.noDepartment") },
        ...departments
          .filter((d) => d.status === "active" || d.id === user.departmentId)
          .map((d) => ({ value: d.id, label: d.status === "active" ? d.name : t("edit.inactive", { name: d.name }) })),
      ]
    : null;
  return (
    <div className="space-y-6">
      <PageHeader description={user.email} />
      <Card className="max-w-2xl">
        <CardHeader>
          <h2 className="leading-none font-semibold">{t("edit.details")}</h2>
        </CardHeader>
        <CardContent>
          <Form method="post" {...getFormProps(form)} className="space-y-4">
            <CsrfInput />
            <input type="hidden" name="intent" value="update" />
            {!canManage ? <FormErrors errors={["errors.NO_PERMISSION_EDIT_USERS"]} /> : <FormErrors errors={form.errors} />}
            <fieldset disabled={!canManage} className="space-y-4">
              <FormField label={t("edit.email")} htmlFor="user-email" description={t("edit.emailHint")}>
                <Input id="user-email" value={user.email} readOnly disabled aria-describedby="user-email-description" />
              </FormField>
              <div className="grid gap-4 sm:grid-cols-2">
                <TextField field={fields.firstName} label={t("edit.firstName")} autoComplete="off" />
                <TextField field={fields.lastName} label={t("edit.lastName")} autoComplete="off" />
              </div>
              <TextField field={fields.mobile} label={t("edit.mobile")} type="tel" description={t("edit.mobileHint")} autoComplete="off" />
              <SelectField
                field={fields.role}
                label={t("edit.role")}
                disabled={roleLocked}
                description={!managesOwners ? t("edit.ownerOnly") : undefined}
                options={roles.map((r) => ({ value: r, label: t(`common:roles.${r}`) }))}
              />
              <CheckboxField field={fields.isAgent} label={t("edit.isAgent")} description={t("edit.isAgentHint")} />
              {departmentOptions ? <SelectField field={fields.departmentId} label={t("edit.department")} options={departmentOptions} /> : null}
              <div className="flex flex-wrap gap-2">
                <Button type="submit" disabled={busy}>
                  {t("edit.submit")}
                </Button>
                <Button asChild variant="ghost">
                  <Link to="/users">{t("common:actions.cancel")}</Link>
                </Button>
              </div>
            </fieldset>
          </Form>
        </CardContent>
      </Card>
      {canManage ? (
        <Card className="max-w-2xl border-destructive/40">
          <CardHeader>
            <h2 className="leading-none font-semibold text-destructive">{t("edit.remove.title")}</h2>
            <CardDescription>{t("edit.remove.body")}</CardDescription>
          </CardHeader>
          <CardContent className="space-y-3">
            <FormErrors errors={removeReply?.result.error?.[""]} params={(removeReply as { params?: Record<string, unknown> } | undefined)?.params} />
            <details open={Boolean(removeReply)} className="group rounded-md border p-3">
              <summary className="cursor-pointer text-sm font-medium">{t("edit.remove.summary", { name })}</summary>
              <Form method="post" className="mt-3">
                <CsrfInput />
                <input type="hidden" name="intent" value="remove" />
                <Button type="submit" variant="destructive" disabled={busy}>
                  {t("edit.remove.confirm")}
                </Button>
              </Form>
            </details>
          </CardContent>
        </Card>
      ) : null}
    </div>
  );
}
