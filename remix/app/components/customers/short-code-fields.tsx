/**
 * The fields of a customer's short code on the staff's forms (/admin/customers/{id}/short-codes/*):
 * nickname, the carriers it is homologated with (native checkboxes: several `deliverability`
 * values), status and monthly price in reais. Plain HTML: works without JavaScript.
 */
import type { FieldMetadata } from "@conform-to/react";
import { CARRIERS } from "~api/customers/constants";
import { SelectField } from "~/components/forms/controls";
import { TextField, useErrorText } from "~/components/forms/fields";
import { useTranslation } from "~/lib/react-i18n";

type Field = FieldMetadata<string | null | undefined>;
type Fields = Record<"nickname" | "status" | "monthly_price", Field> & { deliverability: FieldMetadata<string[] | undefined> };

export function ShortCodeFields({ fields }: { fields: Fields }) {
  const { t } = useTranslation("customers");
  const text = useErrorText();
  // Several checked boxes: the field's value is a list (one box: a string).
  const chosen = ([] as unknown[]).concat(fields.deliverability.initialValue ?? []).map(String);
  const errors = fields.deliverability.errors?.map((e: string) => text(e));
  return (
    <>
      <TextField field={fields.nickname} label={t("shortCodes.nickname")} autoComplete="off" />
      <fieldset className="grid gap-1" aria-describedby={errors?.length ? `${fields.deliverability.id}-error` : undefined}>
        <legend className="text-sm font-medium">{t("shortCodes.deliverability")}</legend>
        <p className="text-sm text-muted-foreground">{t("shortCodes.deliverabilityHint")}</p>
        <div className="flex flex-wrap gap-4">
          {CARRIERS.map((c) => (
            <label key={c} className="flex items-center gap-2 text-sm">
              <input type="checkbox" name={fields.deliverability.name} value={c} defaultChecked={chosen.includes(c)} className="size-4 accent-primary" />
              {c}
            </label>
          ))}
        </div>
        {errors?.length ? (
          <p id={`${fields.deliverability.id}-error`} role="alert" className="text-sm text-destructive">
            {errors.join(" ")}
          </p>
        ) : null}
      </fieldset>
      <SelectField
        field={fields.status}
        label={t("shortCodes.status")}
        options={[
          { value: "active", label: t("shortCodes.statuses.active") },
          { value: "inactive", label: t("shortCodes.statuses.inactive") },
        ]}
      />
      <TextField field={fields.monthly_price} label={t("shortCodes.monthlyPrice")} description={t("shortCodes.priceHint")} autoComplete="off" />
    </>
  );
}
