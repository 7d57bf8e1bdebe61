import type { FieldMetadata } from "@conform-to/react";
import { useTranslation } from "~/lib/react-i18n";
import { SelectField, TextareaField } from "~/components/forms/controls";
import { TextField } from "~/components/forms/fields";

type Fields = {
  name: FieldMetadata<string | undefined | null>;
  description: FieldMetadata<string | undefined | null>;
  status: FieldMetadata<string | undefined | null>;
};

/** Name, description and status of a department (create and edit forms). */
export function DepartmentFields({ fields }: { fields: Fields }) {
  const { t } = useTranslation(["users", "common"]);
  return (
    <>
      <TextField field={fields.name} label={t("departments.name")} autoComplete="off" />
      <TextareaField field={fields.description} label={t("departments.descriptionLabel")} />
      <SelectField field={fields.status} label={t("departments.status")} options={(["active", "inactive"] as const).map((s) => ({ value: s, label: t(`common:status.${s}`) }))} />
    </>
  );
}
