/** /departments/{id}/edit: rename, describe, activate or deactivate a department. */
import { getFormProps, useForm } from "@conform-to/react";
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { useTranslation } from "~/lib/react-i18n";
import { departmentSchema } from "~api/departments/schemas";
import { getDepartment, updateDepartment } from "~api/departments/services";
import { CsrfInput, FormErrors } from "~/components/forms/fields";
import { DepartmentFields } from "~/components/users/department-fields";
import { PageHeader } from "~/components/shell/page-header";
import { Button } from "~/components/ui/button";
import { Card, CardContent } from "~/components/ui/card";
import { orHttpError, requireRoute } from "~/lib/auth.server";
import { handleForm, type FormReply } from "~/lib/forms.server";
import { redirectWithToast } from "~/lib/toast.server";
import { useLazyValidate } from "~/lib/lazy-validate";

export const handle = {
  crumb: (data: unknown) => {
    const d = (data as { department?: { name: string } } | undefined)?.department;
    return d ? { key: "users:departments.edit.title", params: { name: d.name } } : "users:departments.edit.fallbackTitle";
  },
};

export async function loader({ request, params }: LoaderFunctionArgs) {
  const ctx = await requireRoute(request);
  return json({ department: await orHttpError(getDepartment(ctx, params.id ?? "")) });
}

export async function action({ request, params }: ActionFunctionArgs) {
  const ctx = await requireRoute(request);
  const id = params.id ?? "";
  await orHttpError(getDepartment(ctx, id));
  return handleForm(request, departmentSchema, async (value) => {
    await updateDepartment(ctx, id, value);
    return redirectWithToast(request, "/departments", { type: "success", title: "users:departments.edit.saved" });
  });
}

export default function EditDepartment() {
  const { department } = useLoaderData<typeof loader>();
  const last = useActionData<FormReply>();
  const busy = useNavigation().state === "submitting";
  const { t } = useTranslation(["users", "common"]);
  const [form, fields] = useForm({
    id: `department-${department.id}`,
    lastResult: last?.result,
    defaultValue: { name: department.name, description: department.description, status: department.status },
    onValidate: useLazyValidate(() => import("~api/departments/schemas").then((m) => m.departmentSchema)),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
  });
  return (
    <div className="space-y-6">
      <PageHeader description={t("departments.members", { count: department.members })} />
      <Card className="max-w-xl">
        <CardContent>
          <Form method="post" {...getFormProps(form)} className="space-y-4">
            <CsrfInput />
            <FormErrors errors={form.errors} />
            <DepartmentFields fields={fields} />
            <div className="flex flex-wrap gap-2">
              <Button type="submit" disabled={busy}>
                {t("departments.edit.submit")}
              </Button>
              <Button asChild variant="ghost">
                <Link to="/departments">{t("common:actions.cancel")}</Link>
              </Button>
            </div>
          </Form>
        </CardContent>
      </Card>
    </div>
  );
}
