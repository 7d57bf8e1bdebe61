/**
 * /settings/resources: the account's default sender per channel (ADR 071) — what a send that names
 * no sender goes from: an SMS short code (or the route's default), a WhatsApp number, an RCS agent,
 * an e-mail address on a validated domain. Owner and admin change them; others who reach the
 * screen read them. A plain form: works without JavaScript.
 */
import { getFormProps, useForm } from "@conform-to/react";
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { useTranslation } from "~/lib/react-i18n";
import { resourcesSchema } from "~api/message-settings/schemas";
import { getResources, saveResources } from "~api/message-settings/settings";
import { SelectField } from "~/components/forms/controls";
import { CsrfInput, FormErrors, TextField } from "~/components/forms/fields";
import { PageHeader } from "~/components/shell/page-header";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { orHttpError, requireRoute } from "~/lib/auth.server";
import { handleForm, type FormReply } from "~/lib/forms.server";
import { redirectWithToast } from "~/lib/toast.server";
import { useLazyValidate } from "~/lib/lazy-validate";

export const handle = { crumb: "settings:resources.title" };

export async function loader({ request }: LoaderFunctionArgs) {
  const ctx = await requireRoute(request);
  return json(await orHttpError(getResources(ctx)), { headers: { "Cache-Control": "private, no-store" } });
}

export async function action({ request }: ActionFunctionArgs) {
  const ctx = await requireRoute(request);
  return handleForm(request, resourcesSchema, async (value) => {
    await saveResources(ctx, value);
    return redirectWithToast(request, "/settings/resources", { type: "success", title: "settings:resources.saved" });
  });
}

export default function SettingsResources() {
  const { data, choices, editable } = useLoaderData<typeof loader>();
  const { t } = useTranslation(["settings", "common"]);
  const last = useActionData<FormReply & { params?: Record<string, unknown> }>();
  const busy = useNavigation().state === "submitting";
  const [form, fields] = useForm({
    id: "settings-resources",
    lastResult: last?.result,
    defaultValue: {
      sms_sender: data.sms_sender,
      whatsapp_number_id: data.whatsapp_number_id ?? "",
      rcs_agent_id: data.rcs_agent_id ?? "",
      email_from: data.email_from ?? "",
      email_from_name: data.email_from_name,
    },
    onValidate: useLazyValidate(() => import("~api/message-settings/schemas").then((m) => m.resourcesSchema)),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
  });
  const domains = choices.email_domains.join(", ");
  return (
    <div className="max-w-2xl space-y-6">
      <PageHeader
        description={t("resources.description")}
        actions={
          <Button asChild variant="outline">
            <Link to="/settings/messages">{t("messages.title")}</Link>
          </Button>
        }
      />
      <Card>
        <CardHeader>
          <CardTitle>{t("resources.sendersTitle")}</CardTitle>
          <CardDescription>{editable ? t("resources.editHint") : t("resources.readOnly")}</CardDescription>
        </CardHeader>
        <CardContent>
          <Form method="post" {...getFormProps(form)} className="space-y-5" data-testid="resources-form">
            <CsrfInput />
            <FormErrors errors={form.errors} params={last?.params} />
            <fieldset disabled={!editable} className="space-y-5">
              <SelectField
                field={fields.sms_sender}
                label={t("resources.sms")}
                placeholder={t("resources.smsRouteDefault")}
                options={choices.sms}
                description={choices.sms.length ? t("resources.smsHint") : t("resources.smsNone")}
              />
              <SelectField
                field={fields.whatsapp_number_id}
                label={t("resources.whatsapp")}
                placeholder={t("resources.none")}
                options={choices.whatsapp}
                description={choices.whatsapp.length ? t("resources.whatsappHint") : t("resources.whatsappNone")}
              />
              <SelectField
                field={fields.rcs_agent_id}
                label={t("resources.rcs")}
                placeholder={t("resources.none")}
                options={choices.rcs}
                description={choices.rcs.length ? t("resources.rcsHint") : t("resources.rcsNone")}
              />
              <div className="grid grid-cols-1 gap-4 sm:grid-cols-2">
                <TextField
                  field={fields.email_from}
                  label={t("resources.emailFrom")}
                  type="email"
                  description={domains ? t("resources.emailFromHint", { domains }) : t("resources.emailNone")}
                />
                <TextField field={fields.email_from_name} label={t("resources.emailFromName")} />
              </div>
            </fieldset>
            {editable ? (
              <Button type="submit" disabled={busy}>
                {t("common:actions.save")}
              </Button>
            ) : null}
          </Form>
        </CardContent>
      </Card>
    </div>
  );
}
