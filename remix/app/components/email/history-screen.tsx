/**
 * /mail/history: the account's e-mail messages of a range of São Paulo days (at most 31, today by
 * default), newest first, filtered by id, status (e-mail's, each explained by its tooltip),
 * sender and recipient — a GET form: bookmarkable, no JavaScript needed — a keyset page at a
 * time. A message that was not delivered shows its error code and message in its status's
 * tooltip. The Export button posts the filters shown (CSRF, no JavaScript needed) and goes to
 * /mail/exports.
 */
import { Form, Link, useLoaderData, useRouteLoaderData } from "@remix-run/react";
import { useTranslation } from "~/lib/react-i18n";
import { EmailMessagesTable } from "~/components/email/messages-table";
import { EMAIL_HISTORY_FILTERS, type EmailHistoryFilters } from "~/components/email/history-filters";
import { ErrorText } from "~/components/forms/fields";
import { HistoryShell } from "~/components/history/history-shell";
import { Button } from "~/components/ui/button";
import { Input } from "~/components/ui/input";
import { Label } from "~/components/ui/label";
import { NativeSelect, NativeSelectOption } from "~/components/ui/native-select";
import type { EmailHistoryData } from "~/lib/email-history.server";
import type { Lng } from "~/lib/i18n";
import type { RootData } from "~/root";

export function EmailHistoryScreen() {
  const { page, values, cursor, errors, formErrors, statuses, canExport } = useLoaderData<EmailHistoryData>();
  const lng = (useRouteLoaderData<RootData>("root")?.lng ?? "pt-BR") as Lng;
  return (
    <HistoryShell
      path="/mail/history"
      exportsPath="/mail/exports"
      ns="emailReports"
      filterKeys={EMAIL_HISTORY_FILTERS}
      values={values}
      cursor={cursor}
      page={page}
      canExport={canExport}
      formErrors={formErrors}
      filters={<EmailHistoryFilterForm path="/mail/history" values={values} errors={errors} statuses={statuses} />}
      table={page ? <EmailMessagesTable rows={page.data} lng={lng} detailHref={(id) => `/mail/history/${id}`} /> : null}
    />
  );
}

/**
 * The e-mail history's filters as a GET form (bookmarkable, no JavaScript needed) of the screen at
 * `path` (/mail/history; platform staff's /admin/email/reports/history adds its account field as `children`).
 */
export function EmailHistoryFilterForm({
  path,
  values,
  errors,
  statuses,
  children,
}: {
  path: string;
  values: EmailHistoryFilters;
  errors: Partial<Record<keyof EmailHistoryFilters, string[]>>;
  statuses: readonly string[];
  children?: React.ReactNode;
}) {
  const { t } = useTranslation(["emailReports", "smsReports"]);
  const field = (name: keyof EmailHistoryFilters, input: React.ReactNode) => (
    <div className="grid gap-1.5">
      <Label htmlFor={`mail-history-${name}`}>{t(`history.filters.${name}`)}</Label>
      {input}
      <ErrorText id={`mail-history-${name}-error`} errors={errors[name]} />
    </div>
  );
  const invalid = (name: keyof EmailHistoryFilters) => (errors[name]?.length ? { "aria-invalid": true, "aria-describedby": `mail-history-${name}-error` } : {});
  return (
    <Form method="get" action={path} role="search" aria-label={t("history.filters.label")} className="grid gap-3 sm:grid-cols-2 sm:items-start lg:grid-cols-4">
      {field("start", <Input id="mail-history-start" type="date" name="start" defaultValue={values.start} required {...invalid("start")} />)}
      {field("end", <Input id="mail-history-end" type="date" name="end" defaultValue={values.end} required {...invalid("end")} />)}
      {field(
        "status",
        <NativeSelect id="mail-history-status" name="status" defaultValue={values.status} {...invalid("status")}>
          <NativeSelectOption value="">{t("history.filters.anyStatus")}</NativeSelectOption>
          {statuses.map((s) => (
            <NativeSelectOption key={s} value={s}>
              {t(`smsReports:status.${s}`)}
            </NativeSelectOption>
          ))}
        </NativeSelect>,
      )}
      {field("id", <Input id="mail-history-id" name="id" defaultValue={values.id} maxLength={36} autoComplete="off" {...invalid("id")} />)}
      {field("from", <Input id="mail-history-from" type="email" name="from" defaultValue={values.from} maxLength={254} {...invalid("from")} />)}
      {field("to", <Input id="mail-history-to" type="email" name="to" defaultValue={values.to} maxLength={254} {...invalid("to")} />)}
      {children}
      <div className="flex gap-2 sm:pt-6">
        <Button type="submit" variant="secondary">
          {t("history.filters.submit")}
        </Button>
        <Button asChild variant="ghost">
          <Link to={path}>{t("history.filters.clear")}</Link>
        </Button>
      </div>
    </Form>
  );
}
