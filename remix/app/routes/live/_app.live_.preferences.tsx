/** /live/preferences: the signed-in user's mute (disabled, 8 hours, 1 week, 1 month, always) and volume (0..1). */
import { getFormProps, getInputProps, useForm } from "@conform-to/react";
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { useTranslation } from "~/lib/react-i18n";
import { getPreferences, setPreferences } from "~api/live/preferences";
import { preferencesSchema } from "~api/live/schemas";
import { MUTE_OPTIONS } from "~api/live/constants";
import { SelectField } from "~/components/forms/controls";
import { CsrfInput, FormErrors, useErrorText } from "~/components/forms/fields";
import { FormField } from "~/components/ui/form-field";
import { Input } from "~/components/ui/input";
import { PageHeader } from "~/components/shell/page-header";
import { Button } from "~/components/ui/button";
import { Card, CardContent } from "~/components/ui/card";
import { orHttpError, requireRoute } from "~/lib/auth.server";
import { formatDate } from "~/lib/format";
import { handleForm, type FormReply } from "~/lib/forms.server";
import type { Lng } from "~/lib/i18n";
import { redirectWithToast } from "~/lib/toast.server";
import { useLazyValidate } from "~/lib/lazy-validate";

export const handle = { crumb: "live:preferences.title" };

export async function loader({ request }: LoaderFunctionArgs) {
  const ctx = await requireRoute(request);
  return json({ prefs: await orHttpError(getPreferences(ctx)) });
}

export async function action({ request }: ActionFunctionArgs) {
  const ctx = await requireRoute(request);
  return handleForm(request, preferencesSchema, async (v) => {
    await setPreferences(ctx, v);
    return redirectWithToast(request, "/live/preferences", { type: "success", title: "live:preferences.saved" });
  });
}

export default function LivePreferences() {
  const { prefs } = useLoaderData<typeof loader>();
  const last = useActionData<FormReply>();
  const busy = useNavigation().state === "submitting";
  const { t, i18n } = useTranslation(["live", "common"]);
  const text = useErrorText();
  const [form, fields] = useForm({
    id: "live-preferences",
    lastResult: last?.result,
    defaultValue: { mute: prefs.mute, volume: String(prefs.volume) },
    onValidate: useLazyValidate(() => import("~api/live/schemas").then((m) => m.preferencesSchema)),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
  });
  const status =
    prefs.mute === "always"
      ? t("preferences.mutedAlways")
      : prefs.mute_until
        ? t("preferences.mutedUntil", { date: formatDate(prefs.mute_until, i18n.language as Lng, true) })
        : t("preferences.notMuted");
  return (
    <div className="max-w-xl space-y-6">
      <PageHeader description={t("preferences.description")} />
      <Card>
        <CardContent className="space-y-4">
          <p className="text-sm font-medium" data-testid="mute-status">
            {status}
          </p>
          <Form method="post" {...getFormProps(form)} className="space-y-4">
            <CsrfInput />
            <FormErrors errors={form.errors} />
            <SelectField field={fields.mute} label={t("preferences.mute")} options={MUTE_OPTIONS.map((m) => ({ value: m, label: t(`preferences.mutes.${m}`) }))} />
            <FormField label={t("preferences.volume")} htmlFor={fields.volume.id} error={fields.volume.errors?.map((e) => text(e))}>
              <Input {...getInputProps(fields.volume, { type: "number" })} key={fields.volume.key} min={0} max={1} step={0.05} />
            </FormField>
            <Button type="submit" disabled={busy}>
              {t("preferences.submit")}
            </Button>
          </Form>
        </CardContent>
      </Card>
    </div>
  );
}
