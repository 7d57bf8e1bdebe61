/**
 * /rcs/history: the account's RCS messages (both directions) of a range of São Paulo days (at most
 * 31), newest first, filtered by status, handset and content type (a GET form: bookmarkable, no
 * JavaScript needed), a keyset page at a time. Columns: date (opens the detail), agent, handset,
 * type, status (with "SMS fallback: <status>" when an SMS stood in for it), price.
 */
import { Form, Link, useLoaderData, useRouteLoaderData } from "@remix-run/react";
import { ErrorText } from "~/components/forms/fields";
import { HistoryShell } from "~/components/history/history-shell";
import { SmsStatusBadge } from "~/components/sms-reports/status-badge";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { Input } from "~/components/ui/input";
import { Label } from "~/components/ui/label";
import { NativeSelect, NativeSelectOption } from "~/components/ui/native-select";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "~/components/ui/table";
import { formatDate, formatMoney } from "~/lib/format";
import type { Lng } from "~/lib/i18n";
import { useTranslation } from "~/lib/react-i18n";
import type { RcsHistoryData, RcsHistoryFilters } from "~/lib/rcs.server";
import type { RootData } from "~/root";

const FILTERS = ["start", "end", "status", "to", "type"] as const;

export function RcsHistoryScreen() {
  const { page, values, cursor, errors, formErrors, statuses, types } = useLoaderData<RcsHistoryData>();
  const lng = (useRouteLoaderData<RootData>("root")?.lng ?? "pt-BR") as Lng;
  const { t } = useTranslation(["rcs", "smsReports", "common"]);
  const field = (name: keyof RcsHistoryFilters, label: string, input: React.ReactNode) => (
    <div className="grid gap-1.5">
      <Label htmlFor={`rcs-history-${name}`}>{label}</Label>
      {input}
      <ErrorText id={`rcs-history-${name}-error`} errors={errors[name]} />
    </div>
  );
  const invalid = (name: keyof RcsHistoryFilters) => (errors[name]?.length ? { "aria-invalid": true, "aria-describedby": `rcs-history-${name}-error` } : {});

  const filters = (
    <Form method="get" action="/rcs/history" role="search" aria-label={t("history.filters.label")} className="grid gap-3 sm:grid-cols-2 sm:items-start lg:grid-cols-6">
      {field("start", t("history.filters.start"), <Input id="rcs-history-start" type="date" name="start" defaultValue={values.start} required {...invalid("start")} />)}
      {field("end", t("history.filters.end"), <Input id="rcs-history-end" type="date" name="end" defaultValue={values.end} required {...invalid("end")} />)}
      {field(
        "status",
        t("history.filters.status"),
        <NativeSelect id="rcs-history-status" name="status" defaultValue={values.status} {...invalid("status")}>
          <NativeSelectOption value="">{t("history.filters.anyStatus")}</NativeSelectOption>
          {statuses.map((s) => (
            <NativeSelectOption key={s} value={s}>
              {t(`smsReports:status.${s}`, { defaultValue: s })}
            </NativeSelectOption>
          ))}
        </NativeSelect>,
      )}
      {field(
        "type",
        t("history.filters.type"),
        <NativeSelect id="rcs-history-type" name="type" defaultValue={values.type} {...invalid("type")}>
          <NativeSelectOption value="">{t("history.filters.anyType")}</NativeSelectOption>
          {types.map((ty) => (
            <NativeSelectOption key={ty} value={ty}>
              {t(`send.types.${ty}`)}
            </NativeSelectOption>
          ))}
        </NativeSelect>,
      )}
      {field("to", t("history.filters.to"), <Input id="rcs-history-to" type="tel" name="to" defaultValue={values.to} maxLength={20} {...invalid("to")} />)}
      <div className="flex gap-2 sm:pt-6">
        <Button type="submit" variant="secondary">
          {t("history.filters.submit")}
        </Button>
        <Button asChild variant="ghost">
          <Link to="/rcs/history">{t("history.filters.clear")}</Link>
        </Button>
      </div>
    </Form>
  );

  const table = page ? (
    <Table>
      <TableHeader>
        <TableRow>
          <TableHead>{t("history.columns.date")}</TableHead>
          <TableHead>{t("history.columns.agent")}</TableHead>
          <TableHead>{t("history.columns.handset")}</TableHead>
          <TableHead>{t("history.columns.type")}</TableHead>
          <TableHead>{t("history.columns.status")}</TableHead>
          <TableHead className="text-right">{t("history.columns.price")}</TableHead>
        </TableRow>
      </TableHeader>
      <TableBody>
        {page.data.map((m) => (
          <TableRow key={m.id} data-message-id={m.id} data-direction={m.direction}>
            <TableCell className="whitespace-nowrap">
              <Link to={`/rcs/history/${m.id}`} className="text-primary hover:underline" aria-label={t("history.open", { date: formatDate(m.created_at, lng, true) })}>
                <time dateTime={m.created_at}>{formatDate(m.created_at, lng, true)}</time>
              </Link>
            </TableCell>
            <TableCell className="whitespace-nowrap">{m.agent_name ?? (m.direction === "outbound" ? m.from : m.to)}</TableCell>
            <TableCell className="whitespace-nowrap">
              {m.direction === "outbound" ? m.to : m.from}
              <span className="block text-xs text-muted-foreground">{t(`history.direction.${m.direction}`)}</span>
            </TableCell>
            <TableCell className="whitespace-nowrap">{t(`send.types.${m.type}`, { defaultValue: m.type })}</TableCell>
            <TableCell>
              <div className="flex flex-wrap items-center gap-1">
                <SmsStatusBadge status={m.status} />
                {m.fallback ? (
                  <Badge variant="outline" data-fallback-status={m.fallback.status}>
                    {t("history.fallbackBadge", { status: t(`smsReports:status.${m.fallback.status}`, { defaultValue: m.fallback.status }) })}
                  </Badge>
                ) : null}
              </div>
            </TableCell>
            <TableCell className="text-right tabular-nums whitespace-nowrap">
              {formatMoney(m.price, m.currency, lng)}
              {m.price_class ? <span className="block text-xs text-muted-foreground">{t(`send.priceClass.${m.price_class}`, { defaultValue: m.price_class })}</span> : null}
            </TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  ) : null;

  return (
    <HistoryShell
      path="/rcs/history"
      exportsPath="/rcs/history"
      ns="rcs"
      filterKeys={FILTERS}
      values={values}
      cursor={cursor}
      page={page}
      canExport={false}
      formErrors={formErrors}
      filters={filters}
      table={table}
    />
  );
}
