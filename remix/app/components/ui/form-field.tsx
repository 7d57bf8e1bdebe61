import * as React from "react";

import { cn } from "../../lib/utils";
import { Label } from "./label";

/** Ids FormField gives its error and description, for the control's aria-describedby. */
export const fieldErrorId = (htmlFor: string) => `${htmlFor}-error`;
export const fieldDescriptionId = (htmlFor: string) => `${htmlFor}-description`;

const toList = (error?: string | string[] | null) => (Array.isArray(error) ? error : error ? [error] : []).filter(Boolean);

export interface FieldErrorProps extends Omit<React.ComponentProps<"div">, "children"> {
  error?: string | string[] | null;
}

/** Error text for a field (nothing when there is no error). */
export function FieldError({ error, className, ...props }: FieldErrorProps) {
  const messages = toList(error);
  if (messages.length === 0) return null;
  return (
    <div data-slot="field-error" role="alert" className={cn("text-sm text-destructive", className)} {...props}>
      {messages.map((message, i) => (
        <p key={i}>{message}</p>
      ))}
    </div>
  );
}

export interface FormFieldProps {
  label: React.ReactNode;
  htmlFor: string;
  error?: string | string[] | null;
  description?: React.ReactNode;
  className?: string;
  children: React.ReactNode;
}

/**
 * Label + control + description + error. The control should reference the ids
 * `${htmlFor}-description` / `${htmlFor}-error` in aria-describedby (see fieldErrorId).
 */
export function FormField({ label, htmlFor, error, description, className, children }: FormFieldProps) {
  const invalid = toList(error).length > 0;
  return (
    <div data-slot="form-field" data-invalid={invalid || undefined} className={cn("grid gap-2", className)}>
      <Label htmlFor={htmlFor} className={cn(invalid && "text-destructive")}>
        {label}
      </Label>
      {children}
      {description && (
        <p id={fieldDescriptionId(htmlFor)} data-slot="field-description" className="text-sm text-muted-foreground">
          {description}
        </p>
      )}
      <FieldError id={fieldErrorId(htmlFor)} error={error} />
    </div>
  );
}
