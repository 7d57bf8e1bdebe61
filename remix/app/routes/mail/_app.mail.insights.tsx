/**
 * /mail/insights (issue 17, ADR 039): the account's e-mail opens and clicks of a period (a plain GET
 * form of São Paulo days, default today, at most 31): totals and rates, per day (chart and table), by
 * recipient domain, the click map; and the account's tracking settings (open and click tracking on or
 * off), a plain POST form that works without JavaScript (owners and admins change it, others read it).
 */
import { getFormProps, useForm } from "@conform-to/react";
import { type ActionFunctionArgs, json, type LoaderFunctionArgs } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useNavigation, useRouteLoaderData } from "@remix-run/react";
import { useTranslation } from "~/lib/react-i18n";
import { type EmailInsights, emailInsights } from "~api/email/insights";
import { canChangeTracking, getTrackingSettings, updateTrackingSettings } from "~api/email/tracking";
import { isAppError } from "~api/lib/errors";
import { EmailInsightsView } from "~/components/email/insights-view";
import { CheckboxField } from "~/components/forms/controls";
import { CsrfInput, FormErrors } from "~/components/forms/fields";
import { RangeForm } from "~/components/sms-reports/range-form";
import { PageHeader } from "~/components/shell/page-header";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader } from "~/components/ui/card";
import { requireRoute } from "~/lib/auth.server";
import { handleForm, type FormReply } from "~/lib/forms.server";
import type { Lng } from "~/lib/i18n";
import { redirectWithToast } from "~/lib/toast.server";
import type { RootData } from "~/root";
import { trackingSettingsSchema } from "~/forms/email";
import { useLazyValidate } from "~/lib/lazy-validate";

export const handle = { crumb: "emailInsights:crumb" };
const PATH = "/mail/insights";
/** The form's checkboxes: checked posts "on", unchecked nothing (off). */

export async function loader({ request }: LoaderFunctionArgs) {
  const ctx = await requireRoute(request);
  const params = new URL(request.url).searchParams;
  const values = { from: params.get("from")?.trim() ?? "", to: params.get("to")?.trim() ?? "" };
  let insights: EmailInsights | null = null;
  let errors: Record<string, string[]> = {};
  try {
    insights = (await emailInsights(ctx, values)).data;
  } catch (e) {
    if (!isAppError(e) || e.code !== "VALIDATION") throw e;
    errors = e.fields ?? {};
  }
  const settings = (await getTrackingSettings(ctx)).data;
  return json({ insights, values, errors, settings, canChange: canChangeTracking(ctx) }, { headers: { "Cache-Control": "private, no-store" } });
}

export async function action({ request }: ActionFunctionArgs) {
  const ctx = await requireRoute(request);
  return handleForm(request, trackingSettingsSchema, async (v) => {
    await updateTrackingSettings(ctx, { open_tracking: v.open_tracking === "on", click_tracking: v.click_tracking === "on" });
    return redirectWithToast(request, `${PATH}${new URL(request.url).search}`, { type: "success", title: "emailInsights:settings.saved" });
  });
}

function SettingsForm({ settings, canChange }: { settings: { open_tracking: boolean; click_tracking: boolean }; canChange: boolean }) {
  const { t } = useTranslation("emailInsights");
  const last = useActionData<FormReply>();
  const busy = useNavigation().state === "submitting";
  const [form, fields] = useForm({
    id: "email-tracking-settings",
    lastResult: last?.result,
    defaultValue: { open_tracking: settings.open_tracking ? "on" : undefined, click_tracking: settings.click_tracking ? "on" : undefined },
    onValidate: useLazyValidate(() => import("~/forms/email").then((m) => m.trackingSettingsSchema)),
  });
  return (
    <Card data-testid="tracking-settings">
      <CardHeader>
        <h2 className="leading-none font-semibold">{t("settings.title")}</h2>
        <CardDescription>{t("settings.description")}</CardDescription>
      </CardHeader>
      <CardContent>
        {canChange ? (
          <Form method="post" {...getFormProps(form)} className="space-y-4" aria-label={t("settings.title")}>
            <CsrfInput />
            <FormErrors errors={form.errors} />
            <CheckboxField field={fields.open_tracking} label={t("settings.open")} />
            <CheckboxField field={fields.click_tracking} label={t("settings.click")} />
            <Button type="submit" disabled={busy}>
              {t("settings.save")}
            </Button>
          </Form>
        ) : (
          <div className="space-y-2 text-sm">
            {(["open_tracking", "click_tracking"] as const).map((k) => (
              <p key={k} className="flex items-center justify-between gap-4" data-setting={k}>
                <span>{t(k === "open_tracking" ? "settings.open" : "settings.click")}</span>
                <Badge variant={settings[k] ? "default" : "outline"}>{t(settings[k] ? "settings.on" : "settings.off")}</Badge>
              </p>
            ))}
            <p className="text-muted-foreground">{t("settings.readOnly")}</p>
          </div>
        )}
      </CardContent>
    </Card>
  );
}

export default function MailInsights() {
  const { insights: i, values, errors, settings, canChange } = useLoaderData<typeof loader>();
  const lng = (useRouteLoaderData<RootData>("root")?.lng ?? "pt-BR") as Lng;
  const { t } = useTranslation("emailInsights");
  return (
    <div className="space-y-6">
      <PageHeader description={t("description")} />
      <div className="grid grid-cols-1 items-start gap-6 xl:grid-cols-[minmax(0,1fr)_22rem]">
        <Card>
          <CardHeader>
            <RangeForm action={PATH} values={{ from: values.from || i?.from || "", to: values.to || i?.to || "" }} errors={errors} />
          </CardHeader>
        </Card>
        <SettingsForm settings={settings} canChange={canChange} />
      </div>
      {i ? <EmailInsightsView insights={i} lng={lng} /> : null}
    </div>
  );
}
