import type { FieldMetadata } from "@conform-to/react";
import { useTranslation } from "~/lib/react-i18n";
import { CUSTOM_FIELD_TYPES } from "../../../../models/constants";
import { CheckboxField, SelectField, TextareaField } from "~/components/forms/controls";
import { TextField } from "~/components/forms/fields";

type Text = FieldMetadata<string | undefined | null>;
type Flag = FieldMetadata<boolean | string | undefined | null>;
export type CustomFieldFieldsMeta = {
  key?: Text;
  label: Text;
  type: Text;
  options: Text;
  required: Flag;
  sensitive: Flag;
  visible_in_attendance: Flag;
  position: Text;
};

/** The inputs of a custom field definition (create and edit); the key only on creation. */
export function CustomFieldFields({ fields }: { fields: CustomFieldFieldsMeta }) {
  const { t } = useTranslation("contacts");
  return (
    <>
      {fields.key ? <TextField field={fields.key} label={t("customFields.key")} description={t("customFields.keyHint")} autoComplete="off" /> : null}
      <TextField field={fields.label} label={t("customFields.label")} autoComplete="off" />
      <SelectField field={fields.type} label={t("customFields.type")} options={CUSTOM_FIELD_TYPES.map((v) => ({ value: v, label: t(`customFields.types.${v}`) }))} />
      <TextareaField field={fields.options} label={t("customFields.options")} description={t("customFields.optionsHint")} />
      <CheckboxField field={fields.required} label={t("customFields.required")} description={t("customFields.requiredHint")} />
      <CheckboxField field={fields.sensitive} label={t("customFields.sensitive")} description={t("customFields.sensitiveHint")} />
      <CheckboxField field={fields.visible_in_attendance} label={t("customFields.visibleInAttendance")} description={t("customFields.visibleInAttendanceHint")} />
      <TextField field={fields.position} label={t("customFields.position")} type="number" description={t("customFields.positionHint")} />
    </>
  );
}
