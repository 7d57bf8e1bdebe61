/**
 * The deny list screen of /sms/denylist, /whatsapp/denylist and /whatsapp/jv/denylist: the account's deny list (numbers it refuses to send to on every channel; sends
 * to them end `rejected`, not charged) — list with search and pages, add, edit number/reason,
 * remove. /sms/blacklist is the same list (the spec's API name) and redirects here (ADR 011).
 */
import { getFormProps, useForm } from "@conform-to/react";
import { Form, useActionData, useLoaderData, useNavigation, useRouteLoaderData } from "@remix-run/react";
import { useTranslation } from "~/lib/react-i18n";
import { ConfirmDelete } from "~/components/forms/confirm-delete";
import { NumberListCard } from "~/components/optouts/number-list-card";
import { CsrfInput, ErrorText, FormErrors, TextField } from "~/components/forms/fields";
import { PageHeader } from "~/components/shell/page-header";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader } from "~/components/ui/card";
import { Input } from "~/components/ui/input";
import { Label } from "~/components/ui/label";
import { TableCell, TableRow } from "~/components/ui/table";
import { formatDate } from "~/lib/format";
import type { FormReply } from "~/lib/forms.server";
import type { DenyListData } from "./deny-list.server";
import type { RootData } from "~/root";
import { useLazyValidate } from "~/lib/lazy-validate";

const summaryClass = "inline-flex h-8 cursor-pointer list-none items-center rounded-md border px-3 text-sm font-medium hover:bg-accent";

/** The deny list screen (its loader names the path it serves). */
export function DenyListScreen() {
  const { path, list, q } = useLoaderData<DenyListData>();
  const last = useActionData<FormReply>();
  const busy = useNavigation().state === "submitting";
  const lng = useRouteLoaderData<RootData>("root")?.lng ?? "pt-BR";
  const { t } = useTranslation(["smpp", "common"]);
  const sent = last?.result.initialValue as { intent?: string; id?: string } | undefined;
  const [form, fields] = useForm({
    id: "deny-add",
    lastResult: sent?.intent === "add" ? last?.result : undefined,
    onValidate: useLazyValidate(() => import("~api/optouts/schemas").then((m) => m.addDenySchema)),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
  });
  return (
    <div className="space-y-6">
      <PageHeader description={t("denylist.description")} />
      <div className="grid grid-cols-1 items-start gap-6 lg:grid-cols-[minmax(0,1fr)_20rem]">
        <NumberListCard
          path={path}
          idPrefix="deny"
          q={q}
          list={{ ...list, page: list.page ?? 1, last_page: list.last_page ?? 1 }}
          texts={{ search: t("denylist.search"), searchSubmit: t("denylist.searchSubmit"), empty: t("denylist.empty") }}
          columns={[t("denylist.columns.number"), t("denylist.columns.reason"), t("denylist.columns.createdAt"), t("denylist.columns.actions")]}
          row={(d) => {
            const mine = sent?.id === d.id ? sent.intent : undefined;
            const errors = mine ? last?.result.error : undefined;
            return (
              <TableRow key={d.id} data-deny={d.recipient}>
                <TableCell className="font-medium">{d.recipient_formatted}</TableCell>
                <TableCell className="max-w-xs truncate" title={d.reason}>
                  {d.reason || "—"}
                </TableCell>
                <TableCell>{formatDate(d.created_at, lng, true)}</TableCell>
                <TableCell className="text-right align-top">
                  <div className="flex flex-wrap items-start justify-end gap-2">
                    <details className="text-left" open={mine === "edit"}>
                      <summary className={summaryClass} aria-label={t("denylist.edit.label", { number: d.recipient_formatted })}>
                        {t("denylist.edit.summary")}
                      </summary>
                      <Form method="post" className="mt-2 w-72 space-y-3 rounded-md border bg-popover p-3 text-sm whitespace-normal shadow-sm">
                        <CsrfInput />
                        <input type="hidden" name="intent" value="edit" />
                        <input type="hidden" name="id" value={d.id} />
                        <FormErrors errors={mine === "edit" ? errors?.[""] : undefined} />
                        <div className="grid gap-1.5">
                          <Label htmlFor={`deny-number-${d.id}`}>{t("denylist.fields.number")}</Label>
                          <Input id={`deny-number-${d.id}`} name="recipient" type="tel" defaultValue={d.recipient_formatted} required />
                          <ErrorText errors={mine === "edit" ? errors?.recipient : undefined} />
                        </div>
                        <div className="grid gap-1.5">
                          <Label htmlFor={`deny-reason-${d.id}`}>{t("denylist.fields.reason")}</Label>
                          <Input id={`deny-reason-${d.id}`} name="reason" defaultValue={d.reason} maxLength={255} />
                          <ErrorText errors={mine === "edit" ? errors?.reason : undefined} />
                        </div>
                        <Button type="submit" size="sm">
                          {t("denylist.edit.submit")}
                        </Button>
                      </Form>
                    </details>
                    <ConfirmDelete
                      id={d.id}
                      errors={mine === "delete" ? errors?.[""] : undefined}
                      summary={t("denylist.delete.summary")}
                      label={t("denylist.delete.label", { number: d.recipient_formatted })}
                      body={t("denylist.delete.body", { number: d.recipient_formatted })}
                      confirm={t("denylist.delete.confirm")}
                    />
                  </div>
                </TableCell>
              </TableRow>
            );
          }}
        />
        <Card>
          <CardHeader>
            <h2 className="leading-none font-semibold">{t("denylist.add.title")}</h2>
            <CardDescription>{t("denylist.add.description")}</CardDescription>
          </CardHeader>
          <CardContent>
            <Form method="post" {...getFormProps(form)} className="space-y-4">
              <CsrfInput />
              <input type="hidden" name="intent" value="add" />
              <FormErrors errors={form.errors} />
              <TextField field={fields.recipient} label={t("denylist.fields.number")} type="tel" autoComplete="off" />
              <TextField field={fields.reason as never} label={t("denylist.fields.reason")} autoComplete="off" />
              <Button type="submit" className="w-full" disabled={busy}>
                {t("denylist.add.submit")}
              </Button>
            </Form>
          </CardContent>
        </Card>
      </div>
    </div>
  );
}
