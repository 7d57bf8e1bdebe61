/** /departments: list with member counts, inline create form, delete with confirmation. */
import { getFormProps, useForm } from "@conform-to/react";
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { useTranslation } from "~/lib/react-i18n";
import { departmentSchema } from "~api/departments/schemas";
import { createDepartment, deleteDepartment, listDepartments } from "~api/departments/services";
import { CsrfInput, FormErrors } from "~/components/forms/fields";
import { DepartmentFields } from "~/components/users/department-fields";
import { DepartmentsTable } from "~/components/users/departments-table";
import { PageHeader } from "~/components/shell/page-header";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardHeader } from "~/components/ui/card";
import { orHttpError, requireRoute } from "~/lib/auth.server";
import { deleteIntentSchema, handleForm, type FormReply } from "~/lib/forms.server";
import { redirectWithToast } from "~/lib/toast.server";
import { useLazyValidate } from "~/lib/lazy-validate";

export async function loader({ request }: LoaderFunctionArgs) {
  const ctx = await requireRoute(request);
  return json({ departments: await orHttpError(listDepartments(ctx)) });
}

export async function action({ request }: ActionFunctionArgs) {
  const ctx = await requireRoute(request);
  const intent = (await request.clone().formData()).get("intent");
  if (intent === "delete") {
    return handleForm(request, deleteIntentSchema, async ({ id }) => {
      await deleteDepartment(ctx, id);
      return redirectWithToast(request, "/departments", { type: "success", title: "users:departments.delete.deleted" });
    });
  }
  return handleForm(request, departmentSchema, async (value) => {
    const d = await createDepartment(ctx, value);
    return redirectWithToast(request, "/departments", { type: "success", title: "users:departments.create.created", params: { name: d.name } });
  });
}

export default function Departments() {
  const { departments } = useLoaderData<typeof loader>();
  const last = useActionData<FormReply>();
  const busy = useNavigation().state === "submitting";
  const { t } = useTranslation(["users", "common"]);
  const lastIntent = (last?.result.initialValue as Record<string, unknown> | undefined)?.intent;
  const [form, fields] = useForm({
    id: "department-create",
    lastResult: lastIntent === "delete" ? undefined : last?.result,
    defaultValue: { status: "active" },
    onValidate: useLazyValidate(() => import("~api/departments/schemas").then((m) => m.departmentSchema)),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
  });
  return (
    <div className="space-y-6">
      <PageHeader description={t("departments.description")} />
      {lastIntent === "delete" ? <FormErrors errors={last?.result.error?.[""]} /> : null}
      <div className="grid grid-cols-1 items-start gap-6 lg:grid-cols-[minmax(0,1fr)_20rem]">
        <Card>
          <CardContent>
            {departments.length === 0 ? <p className="py-8 text-center text-sm text-muted-foreground">{t("departments.empty")}</p> : <DepartmentsTable rows={departments} />}
          </CardContent>
        </Card>
        <Card>
          <CardHeader>
            <h2 className="leading-none font-semibold">{t("departments.create.title")}</h2>
          </CardHeader>
          <CardContent>
            <Form method="post" {...getFormProps(form)} className="space-y-4">
              <CsrfInput />
              <input type="hidden" name="intent" value="create" />
              <FormErrors errors={form.errors} />
              <DepartmentFields fields={fields} />
              <Button type="submit" className="w-full" disabled={busy}>
                {t("departments.create.submit")}
              </Button>
            </Form>
          </CardContent>
        </Card>
      </div>
    </div>
  );
}
