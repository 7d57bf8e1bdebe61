/** /opening-hours/create: one interval on one or more weekdays, account-wide or for a department. */
import { getFormProps, useForm } from "@conform-to/react";
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { useTranslation } from "~/lib/react-i18n";
import { assertWriter, departmentOptions } from "~api/live/access";
import { createOpeningHours } from "~api/live/calendar";
import { openingHourSchema } from "~api/live/schemas";
import { WEEKDAYS } from "~api/live/constants";
import { SelectField } from "~/components/forms/controls";
import { CsrfInput, ErrorText, FormErrors, TextField } from "~/components/forms/fields";
import { PageHeader } from "~/components/shell/page-header";
import { Button } from "~/components/ui/button";
import { Card, CardContent } from "~/components/ui/card";
import { orHttpError, requireRoute } from "~/lib/auth.server";
import { handleForm, type FormReply } from "~/lib/forms.server";
import { redirectWithToast } from "~/lib/toast.server";
import { useLazyValidate } from "~/lib/lazy-validate";

export const handle = { crumb: "live:hours.create.title" };

export async function loader({ request }: LoaderFunctionArgs) {
  const ctx = await requireRoute(request);
  await orHttpError(Promise.resolve().then(() => assertWriter(ctx, "/opening-hours")));
  return json({ departments: await departmentOptions(ctx) });
}

export async function action({ request }: ActionFunctionArgs) {
  const ctx = await requireRoute(request);
  return handleForm(request, openingHourSchema, async (v) => {
    const r = await createOpeningHours(ctx, v);
    return redirectWithToast(request, "/opening-hours", { type: "success", title: "live:hours.create.created", params: { count: r.created } });
  });
}

export default function CreateOpeningHours() {
  const { departments } = useLoaderData<typeof loader>();
  const last = useActionData<FormReply>();
  const busy = useNavigation().state === "submitting";
  const { t } = useTranslation(["live", "common"]);
  const [form, fields] = useForm({
    id: "hours-create",
    lastResult: last?.result,
    defaultValue: { opens: "08:00", closes: "18:00" },
    onValidate: useLazyValidate(() => import("~api/live/schemas").then((m) => m.openingHourSchema)),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
  });
  const chosen = new Set(([] as unknown[]).concat((last?.result.initialValue as { weekdays?: unknown })?.weekdays ?? ["1", "2", "3", "4", "5"]).map(String));
  return (
    <div className="max-w-xl space-y-6">
      <PageHeader description={t("hours.description")} />
      <Card>
        <CardContent>
          <Form method="post" {...getFormProps(form)} className="space-y-4">
            <CsrfInput />
            <FormErrors errors={form.errors} />
            <fieldset className="space-y-2">
              <legend className="text-sm font-medium">{t("hours.weekdays")}</legend>
              <div className="grid grid-cols-2 gap-2 sm:grid-cols-4">
                {WEEKDAYS.map((d) => (
                  <label key={d} className="flex items-center gap-2 text-sm">
                    <input type="checkbox" name="weekdays" value={d} defaultChecked={chosen.has(String(d))} className="size-4 accent-primary" />
                    {t(`hours.days.${d}`)}
                  </label>
                ))}
              </div>
              <ErrorText errors={fields.weekdays.errors} />
            </fieldset>
            <div className="grid grid-cols-2 gap-4">
              <TextField field={fields.opens} label={t("hours.opens")} type={"time" as "text"} />
              <TextField field={fields.closes} label={t("hours.closes")} type={"time" as "text"} />
            </div>
            <SelectField
              field={fields.department_id}
              label={t("hours.department")}
              placeholder={t("hours.allDepartments")}
              description={t("hours.departmentHint")}
              options={departments.map((d) => ({ value: d.id, label: d.name }))}
            />
            <div className="flex gap-2">
              <Button type="submit" className="flex-1" disabled={busy}>
                {t("hours.create.submit")}
              </Button>
              <Button asChild variant="outline">
                <Link to="/opening-hours">{t("macros.edit.cancel")}</Link>
              </Button>
            </div>
          </Form>
        </CardContent>
      </Card>
    </div>
  );
}
