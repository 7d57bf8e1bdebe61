/**
 * The period filters of the live chat reports (begin, end, department, agent). `method="get"`
 * renders a GET form (no JavaScript: the figures are the loader's answer to the query string);
 * `method="post"` is the export request (with its CSRF field from the caller).
 */
import { Form } from "@remix-run/react";
import type { ReactNode } from "react";
import { useTranslation } from "~/lib/react-i18n";
import { ErrorText } from "~/components/forms/fields";
import { Button } from "~/components/ui/button";
import { Input } from "~/components/ui/input";
import { Label } from "~/components/ui/label";
import { NativeSelect, NativeSelectOption } from "~/components/ui/native-select";

export type PeriodValues = { begin: string; end: string; department_id: string; agent_id: string };
export type FilterOptions = { departments: Array<{ id: string; name: string }>; agents: Array<{ id: string; name: string }> };

export function PeriodFilters({
  action,
  method = "get",
  values,
  errors,
  options,
  submitLabel,
  children,
}: {
  action: string;
  method?: "get" | "post";
  values: PeriodValues;
  errors: Record<string, string[] | undefined>;
  options: FilterOptions;
  submitLabel?: string;
  children?: ReactNode;
}) {
  const { t } = useTranslation("liveReports");
  const invalid = (k: string) => (errors[k]?.length ? { "aria-invalid": true as const, "aria-describedby": `lr-${method}-${k}-error` } : {});
  return (
    <Form method={method} action={action} aria-label={t("filters.label")} className="flex flex-wrap items-start gap-3">
      {children}
      {(["begin", "end"] as const).map((k) => (
        <div key={k} className="grid gap-1.5">
          <Label htmlFor={`lr-${method}-${k}`}>{t(`filters.${k}`)}</Label>
          <Input id={`lr-${method}-${k}`} type="date" name={k} defaultValue={values[k]} {...invalid(k)} />
          <ErrorText id={`lr-${method}-${k}-error`} errors={errors[k]} />
        </div>
      ))}
      <div className="grid min-w-44 gap-1.5">
        <Label htmlFor={`lr-${method}-department`}>{t("filters.department")}</Label>
        <NativeSelect id={`lr-${method}-department`} name="department_id" defaultValue={values.department_id} {...invalid("department_id")}>
          <NativeSelectOption value="">{t("filters.all")}</NativeSelectOption>
          {options.departments.map((d) => (
            <NativeSelectOption key={d.id} value={d.id}>
              {d.name}
            </NativeSelectOption>
          ))}
        </NativeSelect>
        <ErrorText id={`lr-${method}-department_id-error`} errors={errors.department_id} />
      </div>
      <div className="grid min-w-44 gap-1.5">
        <Label htmlFor={`lr-${method}-agent`}>{t("filters.agent")}</Label>
        <NativeSelect id={`lr-${method}-agent`} name="agent_id" defaultValue={values.agent_id} {...invalid("agent_id")}>
          <NativeSelectOption value="">{t("filters.all")}</NativeSelectOption>
          {options.agents.map((a) => (
            <NativeSelectOption key={a.id} value={a.id}>
              {a.name}
            </NativeSelectOption>
          ))}
        </NativeSelect>
        <ErrorText id={`lr-${method}-agent_id-error`} errors={errors.agent_id} />
      </div>
      <Button type="submit" variant={method === "get" ? "secondary" : "default"} className="mt-6">
        {submitLabel ?? t("filters.submit")}
      </Button>
    </Form>
  );
}

/** Seconds as m:ss, or h:mm:ss from an hour. */
export function formatDuration(seconds: number) {
  const s = Math.max(0, Math.round(seconds));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const ss = String(s % 60).padStart(2, "0");
  return h ? `${h}:${String(m).padStart(2, "0")}:${ss}` : `${m}:${ss}`;
}
