import { Form } from "@remix-run/react";
import type { ReactNode } from "react";
import { useTranslation } from "~/lib/react-i18n";
import { ErrorText } from "~/components/forms/fields";
import { Button } from "~/components/ui/button";
import { Input } from "~/components/ui/input";
import { Label } from "~/components/ui/label";

/** A period of days (at most 31) as a GET form, with the screen's own fields after it (`children`); errors from the use-case under their field. */
export function RangeForm({ action, values, errors, children }: { action: string; values: { from: string; to: string }; errors: Record<string, string[]>; children?: ReactNode }) {
  const { t } = useTranslation("smsReports");
  return (
    <Form method="get" action={action} aria-label={t("range.label")} className="flex flex-wrap items-start gap-3">
      {(["from", "to"] as const).map((k) => (
        <div key={k} className="grid gap-1.5">
          <Label htmlFor={`range-${k}`}>{t(`range.${k}`)}</Label>
          <Input id={`range-${k}`} type="date" name={k} defaultValue={values[k]} aria-invalid={errors[k]?.length ? true : undefined} />
          <ErrorText errors={errors[k]} />
        </div>
      ))}
      {children}
      <Button type="submit" variant="secondary" className="mt-6">
        {t("range.submit")}
      </Button>
    </Form>
  );
}
