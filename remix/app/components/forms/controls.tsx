/**
 * Conform-bound controls that post like plain HTML (no JavaScript needed): a native select, a
 * native checkbox and a textarea, each labelled, described and with its errors translated.
 */
import { getInputProps, getSelectProps, getTextareaProps, type FieldMetadata } from "@conform-to/react";
import { useErrorText } from "~/components/forms/fields";
import { FormField, fieldDescriptionId, fieldErrorId } from "~/components/ui/form-field";
import { NativeSelect, NativeSelectOption } from "~/components/ui/native-select";
import { Textarea } from "~/components/ui/textarea";
import { cn } from "~/lib/utils";

export type Option = { value: string; label: string };

export function SelectField({
  field,
  label,
  options,
  placeholder,
  description,
  disabled,
  className,
}: {
  field: FieldMetadata<string | undefined | null>;
  label: string;
  options: Option[];
  /** A first, empty option (for optional fields). */
  placeholder?: string;
  description?: string;
  disabled?: boolean;
  className?: string;
}) {
  const text = useErrorText();
  const errors = field.errors?.map((e) => text(e));
  const { key, ...props } = getSelectProps(field);
  return (
    <FormField label={label} htmlFor={field.id} error={errors} description={description} className={className}>
      <NativeSelect
        {...props}
        key={key}
        disabled={disabled}
        aria-describedby={[description ? fieldDescriptionId(field.id) : null, errors?.length ? fieldErrorId(field.id) : null].filter(Boolean).join(" ") || undefined}
      >
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

export function TextareaField({
  field,
  label,
  description,
  className,
}: {
  field: FieldMetadata<string | undefined | null>;
  label: string;
  description?: string;
  className?: string;
}) {
  const text = useErrorText();
  const errors = field.errors?.map((e) => text(e));
  const { key, ...props } = getTextareaProps(field);
  return (
    <FormField label={label} htmlFor={field.id} error={errors} description={description} className={className}>
      <Textarea
        {...props}
        key={key}
        rows={2}
        aria-describedby={[description ? fieldDescriptionId(field.id) : null, errors?.length ? fieldErrorId(field.id) : null].filter(Boolean).join(" ") || undefined}
      />
    </FormField>
  );
}

/** A native checkbox: checked posts "on", unchecked posts nothing (the schema reads both). */
export function CheckboxField({
  field,
  label,
  description,
  className,
}: {
  field: FieldMetadata<boolean | string | undefined | null>;
  label: string;
  description?: string;
  className?: string;
}) {
  const text = useErrorText();
  const errors = field.errors?.map((e) => text(e));
  const { key, ...props } = getInputProps(field, { type: "checkbox" });
  return (
    <div className={cn("grid gap-1", className)}>
      <label htmlFor={field.id} className="flex items-start gap-2 text-sm font-medium">
        <input
          {...props}
          key={key}
          className="mt-0.5 size-4 shrink-0 rounded border border-input accent-primary focus-visible:ring-[3px] focus-visible:ring-ring/50"
          aria-describedby={description ? fieldDescriptionId(field.id) : undefined}
        />
        <span>{label}</span>
      </label>
      {description ? (
        <p id={fieldDescriptionId(field.id)} className="pl-6 text-sm text-muted-foreground">
          {description}
        </p>
      ) : null}
      {errors?.length ? (
        <p id={fieldErrorId(field.id)} role="alert" className="pl-6 text-sm text-destructive">
          {errors.join(" ")}
        </p>
      ) : null}
    </div>
  );
}
