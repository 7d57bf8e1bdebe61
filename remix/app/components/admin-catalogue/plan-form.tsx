/** The plan form of /admin/plans/create and /admin/plans/{id}/edit (ADR 064): plain fields and checkboxes, works without JavaScript. */
import { getFormProps, useForm } from "@conform-to/react";
import { Form } from "@remix-run/react";
import { CheckboxField, SelectField } from "~/components/forms/controls";
import { CsrfInput, FormErrors, TextField } from "~/components/forms/fields";
import { Button } from "~/components/ui/button";
import type { FormReply } from "~/lib/forms.server";
import { useLazyValidate } from "~/lib/lazy-validate";
import { useTranslation } from "~/lib/react-i18n";
import { PLAN_CURRENCIES, PLAN_CYCLES, PLAN_PERMISSIONS, PLAN_SERVICES } from "~api/plans/constants";

type Checkbox = Parameters<typeof CheckboxField>[0]["field"];

export function PlanForm({ id, last, defaults, submit, busy }: { id: string; last?: FormReply; defaults: Record<string, string>; submit: string; busy: boolean }) {
  const { t } = useTranslation(["adminCatalogue", "plans"]);
  const [form, fields] = useForm({
    id,
    lastResult: last?.result,
    defaultValue: defaults,
    onValidate: useLazyValidate(() => import("~/forms/admin-catalogue").then((m) => m.planFormSchema)),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
  });
  const all = fields as unknown as Record<string, Checkbox>;
  return (
    <Form method="post" {...getFormProps(form)} className="space-y-4">
      <CsrfInput />
      <input type="hidden" name="intent" value="save" />
      <FormErrors errors={form.errors} />
      <TextField field={fields.name} label={t("adminCatalogue:plans.fields.name")} autoComplete="off" />
      <SelectField field={fields.service} label={t("adminCatalogue:plans.fields.service")} options={PLAN_SERVICES.map((s) => ({ value: s, label: t(`plans:services.${s}`) }))} />
      <TextField field={fields.price} label={t("adminCatalogue:plans.fields.price")} description={t("adminCatalogue:plans.fields.priceHint")} autoComplete="off" />
      <SelectField field={fields.currency} label={t("adminCatalogue:plans.fields.currency")} options={PLAN_CURRENCIES.map((c) => ({ value: c, label: c }))} />
      <SelectField
        field={fields.billing_cycle}
        label={t("adminCatalogue:plans.fields.billingCycle")}
        options={PLAN_CYCLES.map((c) => ({ value: c, label: t(`plans:cycles.${c}`) }))}
      />
      <CheckboxField field={all.is_trial} label={t("adminCatalogue:plans.fields.isTrial")} />
      <TextField
        field={fields.duration_days}
        label={t("adminCatalogue:plans.fields.durationDays")}
        description={t("adminCatalogue:plans.fields.durationHint")}
        type="number"
        autoComplete="off"
      />
      <fieldset className="grid gap-2 rounded-md border p-3">
        <legend className="px-1 text-sm font-medium">{t("adminCatalogue:plans.fields.permissions")}</legend>
        {PLAN_PERMISSIONS.map((p) => (
          <CheckboxField key={p} field={all[p]} label={t(`plans:permissions.${p}`)} />
        ))}
      </fieldset>
      <CheckboxField field={all.active} label={t("adminCatalogue:plans.fields.active")} description={t("adminCatalogue:plans.fields.activeHint")} />
      <Button type="submit" disabled={busy}>
        {submit}
      </Button>
    </Form>
  );
}
