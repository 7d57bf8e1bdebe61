import { Form, Link } from "@remix-run/react";
import { useTranslation } from "~/lib/react-i18n";
import { ErrorText } from "~/components/forms/fields";
import { Button } from "~/components/ui/button";
import { Input } from "~/components/ui/input";
import { Label } from "~/components/ui/label";
import { NativeSelect, NativeSelectOption } from "~/components/ui/native-select";

export type HistoryFilterValues = { id: string; start: string; end: string; from: string; to: string; status: string };
export const HISTORY_FILTERS = ["id", "start", "end", "from", "to", "status"] as const;

/** The history's filters as a GET form (bookmarkable; no JavaScript needed). Field errors come from the use-case. */
export function HistoryFilters({
  action,
  values,
  statuses,
  errors,
}: {
  action: string;
  values: HistoryFilterValues;
  statuses: readonly string[];
  errors: Partial<Record<keyof HistoryFilterValues, string[]>>;
}) {
  const { t } = useTranslation("smsReports");
  const field = (name: keyof HistoryFilterValues, label: string, input: React.ReactNode) => (
    <div className="grid gap-1.5">
      <Label htmlFor={`sms-history-${name}`}>{label}</Label>
      {input}
      <ErrorText id={`sms-history-${name}-error`} errors={errors[name]} />
    </div>
  );
  const invalid = (name: keyof HistoryFilterValues) => (errors[name]?.length ? { "aria-invalid": true, "aria-describedby": `sms-history-${name}-error` } : {});
  return (
    <Form method="get" action={action} role="search" aria-label={t("history.filters.label")} className="grid gap-3 sm:grid-cols-2 sm:items-start lg:grid-cols-4 xl:grid-cols-7">
      {field("start", t("history.filters.start"), <Input id="sms-history-start" type="date" name="start" defaultValue={values.start} required {...invalid("start")} />)}
      {field("end", t("history.filters.end"), <Input id="sms-history-end" type="date" name="end" defaultValue={values.end} required {...invalid("end")} />)}
      {field("id", t("history.filters.id"), <Input id="sms-history-id" name="id" defaultValue={values.id} maxLength={36} {...invalid("id")} />)}
      {field("from", t("history.filters.from"), <Input id="sms-history-from" name="from" defaultValue={values.from} maxLength={20} {...invalid("from")} />)}
      {field("to", t("history.filters.to"), <Input id="sms-history-to" type="tel" name="to" defaultValue={values.to} maxLength={20} {...invalid("to")} />)}
      {field(
        "status",
        t("history.filters.status"),
        <NativeSelect id="sms-history-status" name="status" defaultValue={values.status} {...invalid("status")}>
          <NativeSelectOption value="">{t("history.filters.anyStatus")}</NativeSelectOption>
          {statuses.map((s) => (
            <NativeSelectOption key={s} value={s}>
              {t(`status.${s}`)}
            </NativeSelectOption>
          ))}
        </NativeSelect>,
      )}
      <div className="flex gap-2 sm:pt-6">
        <Button type="submit" variant="secondary">
          {t("history.filters.submit")}
        </Button>
        <Button asChild variant="ghost">
          <Link to={action}>{t("history.filters.clear")}</Link>
        </Button>
      </div>
    </Form>
  );
}
