/** A labelled NativeSelect bound to a conform field (works without JavaScript), errors translated. */
import { getSelectProps, type FieldMetadata } from "@conform-to/react";
import { useErrorText } from "~/components/forms/fields";
import { FormField } from "~/components/ui/form-field";
import { NativeSelect, NativeSelectOption } from "~/components/ui/native-select";

export function SelectField({
  field,
  label,
  options,
  placeholder,
  description,
  className,
}: {
  field: FieldMetadata<string | undefined | null>;
  label: string;
  options: Array<{ value: string; label: string }>;
  /** A first, empty option (for optional fields). */
  placeholder?: string;
  description?: string;
  className?: string;
}) {
  const text = useErrorText();
  const { key, ...props } = getSelectProps(field);
  return (
    <FormField label={label} htmlFor={field.id} error={field.errors?.map((e) => text(e))} description={description} className={className}>
      <NativeSelect key={key} {...props}>
        {placeholder !== undefined ? <NativeSelectOption value="">{placeholder}</NativeSelectOption> : null}
        {options.map((o) => (
          <NativeSelectOption key={o.value} value={o.value}>
            {o.label}
          </NativeSelectOption>
        ))}
      </NativeSelect>
    </FormField>
  );
}
