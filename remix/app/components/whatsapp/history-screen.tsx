/**
 * /whatsapp/history and /whatsapp/jv/history (the On-Premises numbers' messages): the account's WhatsApp messages (both directions) of a range of São Paulo
 * days, newest first, filtered by status and recipient (a GET form: bookmarkable, no JavaScript
 * needed), a keyset page at a time ("next" carries the cursor, as fast deep in the list as at its start);
 * on /whatsapp/history the Export button posts the filters shown to its action (CSRF, no JavaScript needed).
 */
import { Form, Link, useLoaderData, useRouteLoaderData } from "@remix-run/react";
import { useTranslation } from "~/lib/react-i18n";
import { ErrorText } from "~/components/forms/fields";
import { HistoryShell } from "~/components/history/history-shell";
import { Button } from "~/components/ui/button";
import { Input } from "~/components/ui/input";
import { Label } from "~/components/ui/label";
import { NativeSelect, NativeSelectOption } from "~/components/ui/native-select";
import { MessagesTable } from "~/components/whatsapp/messages-table";
import type { Lng } from "~/lib/i18n";
import { WHATSAPP_HISTORY_FILTERS, type WhatsappHistoryFilters } from "~/components/whatsapp/history-filters";
import type { WhatsappHistoryData } from "~/lib/whatsapp.server";
import type { RootData } from "~/root";

export function WhatsappHistoryScreen() {
  const { base, page, values, cursor, errors, formErrors, statuses, canExport } = useLoaderData<WhatsappHistoryData>();
  const lng = (useRouteLoaderData<RootData>("root")?.lng ?? "pt-BR") as Lng;
  const { t } = useTranslation(["whatsapp", "smsReports", "common"]);
  const field = (name: keyof WhatsappHistoryFilters, label: string, input: React.ReactNode) => (
    <div className="grid gap-1.5">
      <Label htmlFor={`wa-history-${name}`}>{label}</Label>
      {input}
      <ErrorText id={`wa-history-${name}-error`} errors={errors[name]} />
    </div>
  );
  const invalid = (name: keyof WhatsappHistoryFilters) => (errors[name]?.length ? { "aria-invalid": true, "aria-describedby": `wa-history-${name}-error` } : {});

  const filters = (
    <Form method="get" action={`${base}/history`} role="search" aria-label={t("history.filters.label")} className="grid gap-3 sm:grid-cols-2 sm:items-start lg:grid-cols-5">
      {field("start", t("history.filters.start"), <Input id="wa-history-start" type="date" name="start" defaultValue={values.start} required {...invalid("start")} />)}
      {field("end", t("history.filters.end"), <Input id="wa-history-end" type="date" name="end" defaultValue={values.end} required {...invalid("end")} />)}
      {field(
        "status",
        t("history.filters.status"),
        <NativeSelect id="wa-history-status" name="status" defaultValue={values.status} {...invalid("status")}>
          <NativeSelectOption value="">{t("history.filters.anyStatus")}</NativeSelectOption>
          {statuses.map((s) => (
            <NativeSelectOption key={s} value={s}>
              {t(`smsReports:status.${s}`)}
            </NativeSelectOption>
          ))}
        </NativeSelect>,
      )}
      {field("to", t("history.filters.to"), <Input id="wa-history-to" type="tel" name="to" defaultValue={values.to} maxLength={20} {...invalid("to")} />)}
      <div className="flex gap-2 sm:pt-6">
        <Button type="submit" variant="secondary">
          {t("history.filters.submit")}
        </Button>
        <Button asChild variant="ghost">
          <Link to={`${base}/history`}>{t("history.filters.clear")}</Link>
        </Button>
      </div>
    </Form>
  );
  return (
    <HistoryShell
      path={`${base}/history`}
      exportsPath={`${base}/exports`}
      ns="whatsapp"
      filterKeys={WHATSAPP_HISTORY_FILTERS}
      values={values}
      cursor={cursor}
      page={page}
      canExport={canExport}
      formErrors={formErrors}
      filters={filters}
      table={page ? <MessagesTable rows={page.data} lng={lng} base={base} /> : null}
    />
  );
}
