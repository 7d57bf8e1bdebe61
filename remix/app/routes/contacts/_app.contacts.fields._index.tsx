/** /contacts/fields: the account's custom contact fields; owner and admin create and delete them. */
import { getFormProps, useForm } from "@conform-to/react";
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { useTranslation } from "~/lib/react-i18n";
import { customFieldSchema } from "~api/contacts/schemas";
import { createCustomField, deleteCustomField, isPrivileged, listCustomFields } from "~api/contacts/services";
import { z } from "~api/lib/zod";
import { CustomFieldFields, type CustomFieldFieldsMeta } from "~/components/contacts/custom-field-fields";
import { CustomFieldsTable } from "~/components/contacts/custom-fields-table";
import { CsrfInput, FormErrors } from "~/components/forms/fields";
import { PageHeader } from "~/components/shell/page-header";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardHeader } from "~/components/ui/card";
import { orHttpError, requireRoute } from "~/lib/auth.server";
import { deleteIntentSchema, handleForm, type FormReply } from "~/lib/forms.server";
import { redirectWithToast } from "~/lib/toast.server";
import { useLazyValidate } from "~/lib/lazy-validate";

export async function loader({ request }: LoaderFunctionArgs) {
  const ctx = await requireRoute(request);
  return json({ fields: await orHttpError(listCustomFields(ctx)), canManage: isPrivileged(ctx) });
}

export async function action({ request }: ActionFunctionArgs) {
  const ctx = await requireRoute(request);
  const intent = (await request.clone().formData()).get("intent");
  if (intent === "delete") {
    return handleForm(request, deleteIntentSchema, async ({ id }) => {
      const f = await deleteCustomField(ctx, id);
      return redirectWithToast(request, "/contacts/fields", { type: "success", title: "contacts:customFields.delete.deleted", params: { key: f.key } });
    });
  }
  return handleForm(request, customFieldSchema, async (value) => {
    const f = await createCustomField(ctx, value);
    return redirectWithToast(request, "/contacts/fields", { type: "success", title: "contacts:customFields.create.created", params: { label: f.label } });
  });
}

export default function CustomFields() {
  const { fields: rows, canManage } = useLoaderData<typeof loader>();
  const last = useActionData<FormReply>();
  const busy = useNavigation().state === "submitting";
  const { t } = useTranslation(["contacts", "common"]);
  const sent = last?.result.initialValue as { intent?: string; id?: string } | undefined;
  const deleting = sent?.intent === "delete";
  const [form, fields] = useForm<z.input<typeof customFieldSchema>>({
    id: "custom-field-create",
    lastResult: deleting ? undefined : last?.result,
    defaultValue: { type: "text", visible_in_attendance: "on" },
    onValidate: useLazyValidate(() => import("~api/contacts/schemas").then((m) => m.customFieldSchema)),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
  });
  return (
    <div className="space-y-6">
      <PageHeader description={t("customFields.description")} />
      {!canManage ? <p className="rounded-md border bg-muted/40 px-3 py-2 text-sm text-muted-foreground">{t("customFields.readOnly")}</p> : null}
      <div className={canManage ? "grid grid-cols-1 items-start gap-6 lg:grid-cols-[minmax(0,1fr)_22rem]" : "grid grid-cols-1 gap-6"}>
        <Card>
          <CardContent>
            {rows.length === 0 ? (
              <p className="py-8 text-center text-sm text-muted-foreground">{t("customFields.empty")}</p>
            ) : (
              <CustomFieldsTable rows={rows} canManage={canManage} deleteError={deleting ? { id: sent?.id, errors: last?.result.error?.[""] ?? undefined } : undefined} />
            )}
          </CardContent>
        </Card>
        {canManage ? (
          <Card>
            <CardHeader>
              <h2 className="leading-none font-semibold">{t("customFields.create.title")}</h2>
            </CardHeader>
            <CardContent>
              <Form method="post" {...getFormProps(form)} className="space-y-4">
                <CsrfInput />
                <input type="hidden" name="intent" value="create" />
                <FormErrors errors={form.errors} />
                <CustomFieldFields fields={fields as unknown as CustomFieldFieldsMeta} />
                <Button type="submit" className="w-full" disabled={busy}>
                  {t("customFields.create.submit")}
                </Button>
              </Form>
            </CardContent>
          </Card>
        ) : null}
      </div>
    </div>
  );
}
