/** /holidays/create: register a holiday (name, day). A failure shows the spec's 'error registering holidays'. */
import { getFormProps, useForm } from "@conform-to/react";
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Form, Link, useActionData, useNavigation } from "@remix-run/react";
import { useTranslation } from "~/lib/react-i18n";
import { assertWriter } from "~api/live/access";
import { createHoliday } from "~api/live/calendar";
import { holidaySchema } from "~api/live/schemas";
import { CsrfInput, FormErrors, TextField } from "~/components/forms/fields";
import { PageHeader } from "~/components/shell/page-header";
import { Button } from "~/components/ui/button";
import { Card, CardContent } from "~/components/ui/card";
import { orHttpError, requireRoute } from "~/lib/auth.server";
import { handleForm, type FormReply } from "~/lib/forms.server";
import { redirectWithToast } from "~/lib/toast.server";
import { useLazyValidate } from "~/lib/lazy-validate";

export const handle = { crumb: "live:holidays.create.title" };

export async function loader({ request }: LoaderFunctionArgs) {
  const ctx = await requireRoute(request);
  await orHttpError(Promise.resolve().then(() => assertWriter(ctx, "/holidays")));
  return json({});
}

export async function action({ request }: ActionFunctionArgs) {
  const ctx = await requireRoute(request);
  return handleForm(request, holidaySchema, async (v) => {
    const h = await createHoliday(ctx, v);
    return redirectWithToast(request, "/holidays", { type: "success", title: "live:holidays.create.created", params: { name: h.name } });
  });
}

export default function CreateHoliday() {
  const last = useActionData<FormReply>();
  const busy = useNavigation().state === "submitting";
  const { t } = useTranslation(["live", "common"]);
  const [form, fields] = useForm({
    id: "holiday-create",
    lastResult: last?.result,
    onValidate: useLazyValidate(() => import("~api/live/schemas").then((m) => m.holidaySchema)),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
  });
  return (
    <div className="max-w-xl space-y-6">
      <PageHeader description={t("holidays.description")} />
      <Card>
        <CardContent>
          <Form method="post" {...getFormProps(form)} className="space-y-4">
            <CsrfInput />
            <FormErrors errors={form.errors} />
            <TextField field={fields.name} label={t("holidays.name")} autoComplete="off" />
            <TextField field={fields.day} label={t("holidays.day")} type="date" />
            <div className="flex gap-2">
              <Button type="submit" className="flex-1" disabled={busy}>
                {t("holidays.create.submit")}
              </Button>
              <Button asChild variant="outline">
                <Link to="/holidays">{t("macros.edit.cancel")}</Link>
              </Button>
            </div>
          </Form>
        </CardContent>
      </Card>
    </div>
  );
}
