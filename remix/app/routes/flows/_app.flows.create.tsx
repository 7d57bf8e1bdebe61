/**
 * /flows/create (issue 20): a new flow — name, channel, trigger (and the keyword, for the keyword
 * trigger), optionally started from a ready flow (?template= picks it, as the gallery's "Use this
 * template" does) whose texts are written in the reader's language. Creates a draft and opens the
 * builder. A plain form: works without JavaScript (the keyword field is always there; the server
 * ignores it for other triggers).
 */
import { getFormProps, useForm } from "@conform-to/react";
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { FLOW_CHANNELS, FLOW_TRIGGERS } from "~api/flows/constants";
import { createFlow } from "~api/flows/flows";
import { FLOW_TEMPLATE_IDS } from "~api/flows/template-ids";
import { flowTemplate } from "~api/flows/templates";
import { useHydrated } from "~/components/flows/use-hydrated";
import { SelectField } from "~/components/forms/controls";
import { CsrfInput, FormErrors, TextField } from "~/components/forms/fields";
import { PageHeader } from "~/components/shell/page-header";
import { Button } from "~/components/ui/button";
import { Card, CardContent } from "~/components/ui/card";
import { createFlowFormSchema } from "~/forms/flows";
import { requireRoute } from "~/lib/auth.server";
import { handleForm, type FormReply } from "~/lib/forms.server";
import type { Lng } from "~/lib/i18n";
import { i18next } from "~/lib/i18n.server";
import { useLazyValidate } from "~/lib/lazy-validate";
import { useTranslation } from "~/lib/react-i18n";
import { redirectWithToast } from "~/lib/toast.server";

export const handle = { crumb: "flows:crumbs.create" };

export async function loader({ request }: LoaderFunctionArgs) {
  await requireRoute(request);
  const template = new URL(request.url).searchParams.get("template");
  return json({ template: (FLOW_TEMPLATE_IDS as readonly string[]).includes(template ?? "") ? template : null });
}

export async function action({ request }: ActionFunctionArgs) {
  const ctx = await requireRoute(request);
  const locale = (await i18next.getLocale(request)) as Lng;
  return handleForm(request, createFlowFormSchema, async ({ template, ...settings }) => {
    const draft = template ? flowTemplate(template, locale) : undefined;
    const { data } = await createFlow({ ...ctx, locale }, { ...settings, trigger_value: settings.trigger === "keyword" ? settings.trigger_value : undefined, draft });
    return redirectWithToast(request, `/flows/${data.id}`, { type: "success", title: "flows:create.created", params: { name: data.name } });
  });
}

export default function FlowCreate() {
  const { template } = useLoaderData<typeof loader>();
  const last = useActionData<FormReply>();
  const busy = useNavigation().state === "submitting";
  const { t } = useTranslation("flows");
  const hydrated = useHydrated();
  const [form, fields] = useForm({
    id: "flow-create",
    lastResult: last?.result,
    defaultValue: { name: template ? t(`templates.${template}.name`) : "", channel: "webchat", trigger: "inbound", template: template ?? "" },
    onValidate: useLazyValidate(() => import("~/forms/flows").then((m) => m.createFlowFormSchema)),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
  });
  return (
    <div className="space-y-6">
      <PageHeader
        description={t("create.description")}
        actions={
          <Button asChild variant="outline">
            <Link to="/flows">{t("create.back")}</Link>
          </Button>
        }
      />
      <Card className="max-w-2xl">
        <CardContent>
          <Form method="post" {...getFormProps(form)} className="space-y-4">
            <CsrfInput />
            <FormErrors errors={form.errors} />
            <TextField field={fields.name} label={t("fields.name")} autoComplete="off" />
            <SelectField field={fields.channel} label={t("fields.channel")} options={FLOW_CHANNELS.map((c) => ({ value: c, label: t(`channels.${c}`) }))} />
            <SelectField
              field={fields.trigger}
              label={t("fields.trigger")}
              description={t("fields.triggerHint")}
              options={FLOW_TRIGGERS.map((c) => ({ value: c, label: t(`triggers.${c}`) }))}
            />
            {/* Without JavaScript the keyword is always there (ignored for other triggers); with it, only for the keyword trigger. */}
            {!hydrated || fields.trigger.value === "keyword" ? (
              <TextField field={fields.trigger_value} label={t("fields.keyword")} description={t("fields.keywordHint")} autoComplete="off" />
            ) : null}
            <SelectField
              field={fields.template}
              label={t("fields.template")}
              description={t("fields.templateHint")}
              placeholder={t("create.blank")}
              options={FLOW_TEMPLATE_IDS.map((id) => ({ value: id, label: t(`templates.${id}.name`) }))}
            />
            <Button type="submit" disabled={busy}>
              {t("create.submit")}
            </Button>
          </Form>
        </CardContent>
      </Card>
    </div>
  );
}
