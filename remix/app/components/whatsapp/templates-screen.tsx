/**
 * /whatsapp/templates and /whatsapp/jv/templates (On-Premises numbers only): the account's WhatsApp templates, newest first — name, category, language,
 * number, status at Meta (with Meta's reason of a rejection) and since when — filtered by status and
 * number, a keyset page at a time; delete one (confirmation disclosure). While one is pending the
 * page follows Meta's decision by itself (refetched every 2 s; without JavaScript a <noscript>
 * meta refresh). Works without JavaScript.
 */
import { Form, Link, useActionData, useLoaderData, useRouteLoaderData } from "@remix-run/react";
import { useTranslation } from "~/lib/react-i18n";
import { ConfirmDelete } from "~/components/forms/confirm-delete";
import { ErrorText, FormErrors } from "~/components/forms/fields";
import { REFRESH_MS, useRefresh } from "~/components/live/use-refresh";
import { PageHeader } from "~/components/shell/page-header";
import { CursorPager } from "~/components/whatsapp/cursor-pager";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardHeader } from "~/components/ui/card";
import { Label } from "~/components/ui/label";
import { NativeSelect, NativeSelectOption } from "~/components/ui/native-select";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "~/components/ui/table";
import { TemplateStatusBadge } from "~/components/whatsapp/badges";
import { formatDate } from "~/lib/format";
import type { FormReply } from "~/lib/forms.server";
import type { WhatsappTemplatesData } from "~/lib/whatsapp.server";
import type { Lng } from "~/lib/i18n";
import type { RootData } from "~/root";

/** The templates list of /whatsapp/templates and /whatsapp/jv/templates (the loader says which numbers and where links go). */
export function WhatsappTemplatesScreen() {
  const { base, page, values, cursor, errors, statuses, numbers, canManage } = useLoaderData<WhatsappTemplatesData>();
  const last = useActionData<FormReply>();
  const lng = (useRouteLoaderData<RootData>("root")?.lng ?? "pt-BR") as Lng;
  const { t } = useTranslation(["whatsapp", "common"]);
  const pending = page?.data.some((x) => x.status === "pending") ?? false;
  useRefresh(REFRESH_MS, pending);
  const deleteReply = (last?.result.initialValue as { id?: string } | undefined)?.id;
  const numberLabel = (id: string) => numbers.find((n) => n.id === id)?.label ?? "—";
  const filterQuery = (extra: Record<string, string> = {}) => {
    const p = new URLSearchParams();
    for (const [k, v] of Object.entries({ ...values, ...extra })) if (v) p.set(k, v);
    const s = p.toString();
    return `${base}/templates${s ? `?${s}` : ""}`;
  };
  const formErrors = Object.entries(errors)
    .filter(([k]) => k !== "status" && k !== "number_id")
    .flatMap(([, v]) => v);

  return (
    <div className="space-y-6">
      {pending ? (
        <noscript>
          <meta httpEquiv="refresh" content={String(REFRESH_MS / 1000)} />
        </noscript>
      ) : null}
      <PageHeader
        description={t("templates.description")}
        actions={
          canManage ? (
            <Button asChild>
              <Link to={`${base}/templates/new`}>{t("templates.new")}</Link>
            </Button>
          ) : null
        }
      />
      <Card>
        <CardHeader className="gap-4">
          <Form method="get" action={`${base}/templates`} role="search" aria-label={t("templates.filters.label")} className="grid gap-3 sm:grid-cols-3 sm:items-start">
            <div className="grid gap-1.5">
              <Label htmlFor="wa-templates-status">{t("templates.filters.status")}</Label>
              <NativeSelect id="wa-templates-status" name="status" defaultValue={values.status} aria-invalid={errors.status?.length ? true : undefined}>
                <NativeSelectOption value="">{t("templates.filters.anyStatus")}</NativeSelectOption>
                {statuses.map((s) => (
                  <NativeSelectOption key={s} value={s}>
                    {t(`templateStatus.${s}`)}
                  </NativeSelectOption>
                ))}
              </NativeSelect>
              <ErrorText errors={errors.status} />
            </div>
            <div className="grid gap-1.5">
              <Label htmlFor="wa-templates-number">{t("templates.filters.number")}</Label>
              <NativeSelect id="wa-templates-number" name="number_id" defaultValue={values.number_id} aria-invalid={errors.number_id?.length ? true : undefined}>
                <NativeSelectOption value="">{t("templates.filters.anyNumber")}</NativeSelectOption>
                {numbers.map((n) => (
                  <NativeSelectOption key={n.id} value={n.id}>
                    {n.label}
                  </NativeSelectOption>
                ))}
              </NativeSelect>
              <ErrorText errors={errors.number_id} />
            </div>
            <div className="flex gap-2 sm:pt-6">
              <Button type="submit" variant="secondary">
                {t("templates.filters.submit")}
              </Button>
              <Button asChild variant="ghost">
                <Link to={`${base}/templates`}>{t("templates.filters.clear")}</Link>
              </Button>
            </div>
          </Form>
          <FormErrors errors={formErrors} />
        </CardHeader>
        <CardContent className="space-y-4">
          {!page ? null : page.data.length === 0 ? (
            <p className="py-8 text-center text-sm text-muted-foreground">{t("templates.empty")}</p>
          ) : (
            <Table>
              <TableHeader>
                <TableRow>
                  <TableHead>{t("templates.columns.name")}</TableHead>
                  <TableHead>{t("templates.columns.category")}</TableHead>
                  <TableHead>{t("templates.columns.language")}</TableHead>
                  <TableHead>{t("templates.columns.number")}</TableHead>
                  <TableHead>{t("templates.columns.status")}</TableHead>
                  <TableHead>{t("templates.columns.since")}</TableHead>
                  {canManage ? (
                    <TableHead className="text-right">
                      <span className="sr-only">{t("templates.columns.actions")}</span>
                    </TableHead>
                  ) : null}
                </TableRow>
              </TableHeader>
              <TableBody>
                {page.data.map((tpl) => (
                  <TableRow key={tpl.id} data-template-id={tpl.id} data-template-name={tpl.name}>
                    <TableCell className="align-top font-medium">{tpl.name}</TableCell>
                    <TableCell className="align-top">{t(`category.${tpl.category}`, { defaultValue: tpl.category })}</TableCell>
                    <TableCell className="align-top">{t(`language.${tpl.language}`, { defaultValue: tpl.language })}</TableCell>
                    <TableCell className="align-top whitespace-nowrap">{numberLabel(tpl.number_id)}</TableCell>
                    <TableCell className="align-top">
                      <div className="space-y-1">
                        <TemplateStatusBadge status={tpl.status} />
                        {tpl.reason ? (
                          <p className="text-xs text-muted-foreground" data-reason={tpl.reason}>
                            {t("templates.reason", { reason: t(`rejection.${tpl.reason}`, { defaultValue: tpl.reason }) })}
                          </p>
                        ) : null}
                      </div>
                    </TableCell>
                    <TableCell className="align-top whitespace-nowrap">
                      <time dateTime={String(tpl.updated_at)}>{formatDate(tpl.updated_at, lng, true)}</time>
                    </TableCell>
                    {canManage ? (
                      <TableCell className="text-right align-top">
                        <ConfirmDelete
                          id={tpl.id}
                          errors={deleteReply === tpl.id ? last?.result.error?.[""] : undefined}
                          summary={t("templates.delete.summary")}
                          label={t("templates.delete.label", { name: tpl.name })}
                          body={t("templates.delete.body", { name: tpl.name })}
                          confirm={t("templates.delete.confirm")}
                        />
                      </TableCell>
                    ) : null}
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          )}
          {page ? <CursorPager cursor={cursor} next={page.next_cursor} href={(c) => filterQuery(c ? { cursor: c } : undefined)} /> : null}
        </CardContent>
      </Card>
    </div>
  );
}
