/** The GET filter forms of /admin/audit, /admin/audit/insights and /admin/logs: labelled fields, their errors beside them, no script. */
import { ErrorText } from "~/components/forms/fields";
import { Input } from "~/components/ui/input";
import { Label } from "~/components/ui/label";

export type FilterErrors = Record<string, string[]> | null;

export function FilterField({
  name,
  label,
  value,
  errors,
  type = "text",
  placeholder,
  maxLength,
}: {
  name: string;
  label: string;
  value: string;
  errors: FilterErrors;
  type?: "text" | "date" | "search";
  placeholder?: string;
  maxLength?: number;
}) {
  const id = `filter-${name}`;
  const err = errors?.[name];
  return (
    <div className="grid gap-1">
      <Label htmlFor={id}>{label}</Label>
      <Input
        id={id}
        name={name}
        type={type}
        defaultValue={value}
        placeholder={placeholder}
        maxLength={maxLength}
        aria-invalid={err?.length ? true : undefined}
        aria-describedby={err?.length ? `${id}-error` : undefined}
      />
      <ErrorText id={`${id}-error`} errors={err} />
    </div>
  );
}

/** A link's query string with the empty values left out. */
export function hrefWith(path: string, params: Record<string, string | null | undefined>) {
  const q = new URLSearchParams(Object.entries(params).filter((e): e is [string, string] => Boolean(e[1])));
  const s = q.toString();
  return s ? `${path}?${s}` : path;
}
