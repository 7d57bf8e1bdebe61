/** Form pieces every screen uses: CSRF token, translated field and form errors. */
import { useRouteLoaderData } from "@remix-run/react";
import { useTranslation } from "~/lib/react-i18n";
import { webNamespaces } from "~/lib/i18n";
import { cn } from "~/lib/utils";
import { getInputProps, type FieldMetadata } from "@conform-to/react";
import { FormField } from "~/components/ui/form-field";
import { Input } from "~/components/ui/input";

export function useCsrf(): string {
  const data = useRouteLoaderData<{ csrf: string }>("root");
  return data?.csrf ?? "";
}

export function CsrfInput() {
  return <input type="hidden" name="csrf" value={useCsrf()} />;
}

/** Error strings are locale keys, optionally with one parameter: "validation.minLength::13". */
export function useErrorText() {
  const { t } = useTranslation();
  return (raw: string, params?: Record<string, unknown>) => {
    const [k, arg] = raw.split("::");
    const [ns, ...rest] = k.split(".");
    const known = (webNamespaces as readonly string[]).includes(ns);
    return (known ? t(`${ns}:${rest.join(".")}`, { 0: arg, ...params }) : t("validation:invalid")) as string;
  };
}

export function ErrorText({ errors, id, className }: { errors?: string[] | null; id?: string; className?: string }) {
  const text = useErrorText();
  if (!errors?.length) return null;
  return (
    <p id={id} role="alert" className={cn("text-sm text-destructive", className)}>
      {errors.map((e) => text(e)).join(" ")}
    </p>
  );
}

export function FormErrors({ errors, params }: { errors?: string[] | null; params?: Record<string, unknown> }) {
  const text = useErrorText();
  if (!errors?.length) return null;
  return (
    <div role="alert" className="rounded-md border border-destructive/40 bg-destructive/10 px-3 py-2 text-sm text-destructive">
      {errors.map((e) => (
        <p key={e}>{text(e, params)}</p>
      ))}
    </div>
  );
}

/** A labelled input bound to a conform field, errors translated. Works without JavaScript. */
export function TextField({
  field,
  label,
  type = "text",
  description,
  autoComplete,
  className,
}: {
  field: FieldMetadata<string | undefined | null>;
  label: string;
  type?: "text" | "email" | "password" | "tel" | "date" | "datetime-local" | "url" | "number" | "color";
  description?: string;
  autoComplete?: string;
  className?: string;
}) {
  const text = useErrorText();
  const errors = field.errors?.map((e) => text(e));
  return (
    <FormField label={label} htmlFor={field.id} error={errors} description={description} className={className}>
      <Input {...getInputProps(field, { type, ariaDescribedBy: description ? `${field.id}-description` : undefined })} key={field.key} autoComplete={autoComplete} />
    </FormField>
  );
}
