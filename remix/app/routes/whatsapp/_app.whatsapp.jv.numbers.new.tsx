/**
 * /whatsapp/jv/numbers/new: connect a number of the older integration — the BSP client's base URL,
 * its username and password and the phone number it serves (E.164). connectWhatsappNumber logs in,
 * reads the client's health and points its webhooks here; a refusal is shown next to its field,
 * translated (wrong credentials on the password, an address without an On-Premises API on the base
 * URL). The password is never sent back to the form. Works without JavaScript.
 */
import { getFormProps, useForm } from "@conform-to/react";
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Form, useActionData, useNavigation } from "@remix-run/react";
import { useTranslation } from "~/lib/react-i18n";
import { connectWhatsappNumber } from "~api/whatsapp/numbers";
import { connectOnpremNumberSchema } from "~api/whatsapp/schemas";
import { CsrfInput, FormErrors, TextField } from "~/components/forms/fields";
import { PageHeader } from "~/components/shell/page-header";
import { Button } from "~/components/ui/button";
import { Card, CardContent } from "~/components/ui/card";
import { requireRoute } from "~/lib/auth.server";
import { handleForm, type FormReply } from "~/lib/forms.server";
import { redirectWithToast } from "~/lib/toast.server";
import { useLazyValidate } from "~/lib/lazy-validate";

export const handle = { crumb: "whatsapp:crumbs.jvConnect" };

export async function loader({ request }: LoaderFunctionArgs) {
  await requireRoute(request);
  return json({});
}

export async function action({ request }: ActionFunctionArgs) {
  const ctx = await requireRoute(request);
  return handleForm(
    request,
    connectOnpremNumberSchema,
    async (input) => {
      const { data } = await connectWhatsappNumber(ctx, input);
      return redirectWithToast(request, "/whatsapp/jv/numbers", { type: "success", title: "whatsapp:numbers.connected", params: { number: data.display_phone_number } });
    },
    { hideFields: ["password"] },
  );
}

export default function WhatsappJvConnect() {
  const last = useActionData<FormReply>();
  const busy = useNavigation().state === "submitting";
  const { t } = useTranslation("whatsapp");
  const [form, fields] = useForm({
    id: "whatsapp-jv-connect",
    lastResult: last?.result,
    onValidate: useLazyValidate(() => import("~api/whatsapp/schemas").then((m) => m.connectOnpremNumberSchema)),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
  });
  return (
    <div className="space-y-6">
      <PageHeader description={t("jv.connect.description")} />
      <Card className="max-w-2xl">
        <CardContent>
          <Form method="post" {...getFormProps(form)} className="space-y-4" autoComplete="off">
            <CsrfInput />
            <input type="hidden" name="integration" value="onprem" />
            <FormErrors errors={form.errors} />
            <TextField field={fields.base_url} label={t("jv.connect.baseUrl")} description={t("jv.connect.baseUrlHint")} autoComplete="off" />
            <TextField field={fields.username} label={t("jv.connect.username")} autoComplete="off" />
            <TextField field={fields.password} label={t("jv.connect.password")} type="password" autoComplete="new-password" />
            <TextField field={fields.phone_number} label={t("jv.connect.phoneNumber")} type="tel" description={t("jv.connect.phoneNumberHint")} autoComplete="off" />
            <Button type="submit" disabled={busy}>
              {t("jv.connect.submit")}
            </Button>
          </Form>
        </CardContent>
      </Card>
    </div>
  );
}
