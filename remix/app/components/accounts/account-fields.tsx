import type { FieldMetadata } from "@conform-to/react";
import { useTranslation } from "~/lib/react-i18n";
import { SelectField } from "~/components/forms/controls";
import { TextField } from "~/components/forms/fields";

type F = FieldMetadata<string | undefined | null>;
export type AccountFieldSet = {
  name: F;
  currency: F;
  street: F;
  number: F;
  complement: F;
  district: F;
  city: F;
  province: F;
  postalCode: F;
};

/** Name, currency and address of an account (spec section 3). */
export function AccountFields({ fields, currencies }: { fields: AccountFieldSet; currencies: Array<{ code: string; label: string }> }) {
  const { t } = useTranslation("accounts");
  return (
    <div className="space-y-6">
      <div className="space-y-4">
        <TextField field={fields.name} label={t("create.name")} description={t("create.nameHint")} autoComplete="organization" />
        <SelectField
          field={fields.currency}
          label={t("create.currency")}
          description={t("create.currencyHint")}
          options={currencies.map((c) => ({ value: c.code, label: c.label }))}
        />
      </div>
      <fieldset className="space-y-4">
        <legend className="mb-2 text-sm font-semibold">{t("create.address")}</legend>
        <div className="grid gap-4 sm:grid-cols-[1fr_8rem]">
          <TextField field={fields.street} label={t("create.street")} autoComplete="address-line1" />
          <TextField field={fields.number} label={t("create.number")} autoComplete="off" />
        </div>
        <div className="grid gap-4 sm:grid-cols-2">
          <TextField field={fields.complement} label={t("create.complement")} autoComplete="address-line2" />
          <TextField field={fields.district} label={t("create.district")} autoComplete="address-level3" />
        </div>
        <div className="grid gap-4 sm:grid-cols-[1fr_8rem_10rem]">
          <TextField field={fields.city} label={t("create.city")} autoComplete="address-level2" />
          <TextField field={fields.province} label={t("create.province")} autoComplete="address-level1" />
          <TextField field={fields.postalCode} label={t("create.postalCode")} autoComplete="postal-code" />
        </div>
      </fieldset>
    </div>
  );
}
