/**
 * /admin/logs (issue 23, ADR 062; platform staff): the application's errors (the API's 5xx and
 * unexpected errors) and the providers' send failures, newest first, searchable by text, source,
 * account and São Paulo days in a plain GET form; keyset pages ("More"). Kept 30 days.
 */
import type { LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Form, Link, useLoaderData, useRouteLoaderData } from "@remix-run/react";
import { useTranslation } from "~/lib/react-i18n";
import { listAppLogs } from "~api/app-logs/list";
import { APP_LOG_SOURCES } from "~api/app-logs/constants";
import { PageHeader } from "~/components/shell/page-header";
import { Button } from "~/components/ui/button";
import { Card, CardContent } from "~/components/ui/card";
import { Label } from "~/components/ui/label";
import { NativeSelect, NativeSelectOption } from "~/components/ui/native-select";
import { ErrorText, FormErrors } from "~/components/forms/fields";
import { FilterField, hrefWith } from "~/components/admin-audit/filters";
import { searchOf, withFieldErrors } from "~/components/admin-audit/query.server";
import { requireRoute } from "~/lib/auth.server";
import { formatDate } from "~/lib/format";
import type { Lng } from "~/lib/i18n";
import type { RootData } from "~/root";

export const handle = { crumb: "adminAudit:logs.title" };

const PATH = "/admin/logs";
const FILTERS = ["q", "source", "account", "from", "to"];

export async function loader({ request }: LoaderFunctionArgs) {
  const ctx = await requireRoute(request);
  const filters = searchOf(request, FILTERS);
  const cursor = new URL(request.url).searchParams.get("cursor") ?? undefined;
  const { result, errors } = await withFieldErrors(() => listAppLogs(ctx, { ...filters, cursor, limit: "50" }));
  return json({ filters, errors, data: result?.data ?? [], next_cursor: result?.next_cursor ?? null }, { headers: { "Cache-Control": "private, no-store" } });
}

export default function AdminLogs() {
  const { filters, errors, data, next_cursor } = useLoaderData<typeof loader>();
  const lng = (useRouteLoaderData<RootData>("root")?.lng ?? "pt-BR") as Lng;
  const { t } = useTranslation("adminAudit");
  return (
    <div className="space-y-6">
      <PageHeader description={t("logs.description")} />
      <Form method="get" role="search" aria-label={t("logs.filter")} className="flex flex-wrap items-start gap-3">
        <FilterField name="q" type="search" label={t("logs.text")} value={filters.q} errors={errors} placeholder={t("logs.textPlaceholder")} maxLength={100} />
        <div className="grid gap-1">
          <Label htmlFor="filter-source">{t("logs.source")}</Label>
          <NativeSelect id="filter-source" name="source" defaultValue={filters.source}>
            <NativeSelectOption value="">{t("logs.anySource")}</NativeSelectOption>
            {APP_LOG_SOURCES.map((s) => (
              <NativeSelectOption key={s} value={s}>
                {t(`logs.sources.${s}`)}
              </NativeSelectOption>
            ))}
          </NativeSelect>
          <ErrorText errors={errors?.source} />
        </div>
        <FilterField name="account" label={t("filters.account")} value={filters.account} errors={errors} placeholder={t("filters.accountPlaceholder")} maxLength={36} />
        <FilterField name="from" type="date" label={t("filters.from")} value={filters.from} errors={errors} />
        <FilterField name="to" type="date" label={t("filters.to")} value={filters.to} errors={errors} />
        <Button type="submit" className="mt-6">
          {t("filters.submit")}
        </Button>
      </Form>
      <FormErrors errors={errors?.cursor ?? errors?.[""]} />
      <Card>
        <CardContent className="overflow-x-auto pt-6">
          {data.length === 0 ? (
            <p className="py-6 text-center text-sm text-muted-foreground">{t("logs.empty")}</p>
          ) : (
            <table className="w-full text-sm">
              <thead>
                <tr className="text-left text-muted-foreground">
                  <th className="py-2">{t("logs.when")}</th>
                  <th>{t("logs.source")}</th>
                  <th>{t("logs.code")}</th>
                  <th>{t("logs.message")}</th>
                  <th>{t("filters.account")}</th>
                  <th>{t("logs.detail")}</th>
                </tr>
              </thead>
              <tbody>
                {data.map((e) => (
                  <tr key={e.id} data-log-id={e.id} className="border-t align-top">
                    <td className="py-2 whitespace-nowrap">{formatDate(e.created_at, lng, true)}</td>
                    <td>{t(`logs.sources.${e.source}`)}</td>
                    <td className="font-mono text-xs">{e.code}</td>
                    <td className="max-w-md break-words">{e.message}</td>
                    <td>
                      {e.account_id ? (
                        <Link to={hrefWith(PATH, { ...filters, account: e.account_id })} className="underline">
                          {e.account_name ?? e.account_id}
                        </Link>
                      ) : (
                        "—"
                      )}
                    </td>
                    <td className="font-mono text-xs text-muted-foreground">
                      {Object.entries(e.detail)
                        .map(([k, v]) => `${k}=${String(v)}`)
                        .join(" ")}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </CardContent>
      </Card>
      {next_cursor ? (
        <Button asChild variant="outline">
          <Link to={hrefWith(PATH, { ...filters, cursor: next_cursor })}>{t("more")}</Link>
        </Button>
      ) : null}
    </div>
  );
}
