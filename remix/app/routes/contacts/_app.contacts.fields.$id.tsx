/** /contacts/fields/{id}: edit a custom field (owner or admin); its key stays, stored values are not rewritten. */
import { getFormProps, useForm } from "@conform-to/react";
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { useTranslation } from "~/lib/react-i18n";
import { customFieldUpdateSchema } from "~api/contacts/schemas";
import { getCustomField, isPrivileged, updateCustomField } from "~api/contacts/services";
import type { z } from "~api/lib/zod";
import { CustomFieldFields, type CustomFieldFieldsMeta } from "~/components/contacts/custom-field-fields";
import { CsrfInput, FormErrors } from "~/components/forms/fields";
import { PageHeader } from "~/components/shell/page-header";
import { Button } from "~/components/ui/button";
import { Card, CardContent } from "~/components/ui/card";
import { orHttpError, requireRoute } from "~/lib/auth.server";
import { handleForm, type FormReply } from "~/lib/forms.server";
import { redirectWithToast } from "~/lib/toast.server";
import { useLazyValidate } from "~/lib/lazy-validate";

export const handle = {
  crumb: (data: unknown) => {
    const f = (data as { field?: { label: string } } | undefined)?.field;
    return f ? { key: "contacts:customFields.editTitle", params: { label: f.label } } : "contacts:customFields.editFallback";
  },
};

export async function loader({ request, params }: LoaderFunctionArgs) {
  const ctx = await requireRoute(request);
  const field = await orHttpError(getCustomField(ctx, params.id ?? ""));
  return json({ field, canManage: isPrivileged(ctx) });
}

export async function action({ request, params }: ActionFunctionArgs) {
  const ctx = await requireRoute(request);
  const id = params.id ?? "";
  await orHttpError(getCustomField(ctx, id));
  return handleForm(request, customFieldUpdateSchema, async (value) => {
    await updateCustomField(ctx, id, value);
    return redirectWithToast(request, "/contacts/fields", { type: "success", title: "contacts:customFields.saved" });
  });
}

export default function EditCustomField() {
  const { field, canManage } = useLoaderData<typeof loader>();
  const last = useActionData<FormReply>();
  const busy = useNavigation().state === "submitting";
  const { t } = useTranslation(["contacts", "common"]);
  const [form, fields] = useForm<z.input<typeof customFieldUpdateSchema>>({
    id: `custom-field-${field.id}`,
    lastResult: last?.result,
    defaultValue: {
      label: field.label,
      type: field.type,
      options: field.options.join(", "),
      required: field.required ? "on" : undefined,
      sensitive: field.sensitive ? "on" : undefined,
      visible_in_attendance: field.visible_in_attendance ? "on" : undefined,
      position: String(field.position),
    },
    onValidate: useLazyValidate(() => import("~api/contacts/schemas").then((m) => m.customFieldUpdateSchema)),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
  });
  return (
    <div className="space-y-6">
      <PageHeader description={t("customFields.keyFixed", { key: field.key })} />
      <Card className="max-w-xl">
        <CardContent>
          <Form method="post" {...getFormProps(form)} className="space-y-4">
            <CsrfInput />
            {!canManage ? <FormErrors errors={["errors.FORBIDDEN"]} /> : <FormErrors errors={form.errors} />}
            <fieldset disabled={!canManage} className="space-y-4">
              <CustomFieldFields fields={fields as unknown as CustomFieldFieldsMeta} />
              <p className="text-sm text-muted-foreground">{t("customFields.typeChangeHint")}</p>
              <div className="flex flex-wrap gap-2">
                <Button type="submit" disabled={busy}>
                  {t("customFields.submit")}
                </Button>
                <Button asChild variant="ghost">
                  <Link to="/contacts/fields">{t("common:actions.cancel")}</Link>
                </Button>
              </div>
            </fieldset>
          </Form>
        </CardContent>
      </Card>
    </div>
  );
}
