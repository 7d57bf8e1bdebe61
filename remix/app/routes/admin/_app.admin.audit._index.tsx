/**
 * /admin/audit (issue 23, ADR 062): who did what, when, in which account, with each entry's
 * before/after — platform staff over every account, a reseller's owner or admin over its own and
 * its customers'. Filters by account, user (e-mail), action and São Paulo days in a plain GET form;
 * keyset pages ("More"). No script needed.
 */
import type { LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Form, Link, useLoaderData, useRouteLoaderData } from "@remix-run/react";
import { useTranslation } from "~/lib/react-i18n";
import { listAdminAudit } from "~api/admin-audit/audit";
import { PageHeader } from "~/components/shell/page-header";
import { Button } from "~/components/ui/button";
import { Card, CardContent } from "~/components/ui/card";
import { FormErrors } from "~/components/forms/fields";
import { FilterField, hrefWith } from "~/components/admin-audit/filters";
import { searchOf, withFieldErrors } from "~/components/admin-audit/query.server";
import { requireRoute } from "~/lib/auth.server";
import { i18next } from "~/lib/i18n.server";
import { formatDate } from "~/lib/format";
import type { Lng } from "~/lib/i18n";
import type { RootData } from "~/root";

export const handle = { crumb: "adminAudit:audit.title" };

const PATH = "/admin/audit";
const FILTERS = ["account", "user", "action", "from", "to"];

export async function loader({ request }: LoaderFunctionArgs) {
  const ctx = await requireRoute(request);
  const filters = searchOf(request, FILTERS);
  const cursor = new URL(request.url).searchParams.get("cursor") ?? undefined;
  const lng = await i18next.getLocale(request);
  const { result, errors } = await withFieldErrors(() => listAdminAudit(ctx, { ...filters, cursor, limit: "50" }, lng));
  return json({ filters, errors, data: result?.data ?? [], next_cursor: result?.next_cursor ?? null }, { headers: { "Cache-Control": "private, no-store" } });
}

export default function AdminAudit() {
  const { filters, errors, data, next_cursor } = useLoaderData<typeof loader>();
  const lng = (useRouteLoaderData<RootData>("root")?.lng ?? "pt-BR") as Lng;
  const { t } = useTranslation("adminAudit");
  return (
    <div className="space-y-6">
      <PageHeader description={t("audit.description")} />
      <p>
        <Link to={hrefWith(`${PATH}/insights`, { account: filters.account, user: filters.user, from: filters.from, to: filters.to })} className="text-sm underline">
          {t("audit.toInsights")}
        </Link>
      </p>
      <Form method="get" role="search" aria-label={t("audit.filter")} className="flex flex-wrap items-start gap-3">
        <FilterField name="account" label={t("filters.account")} value={filters.account} errors={errors} placeholder={t("filters.accountPlaceholder")} maxLength={36} />
        <FilterField name="user" label={t("filters.user")} value={filters.user} errors={errors} placeholder={t("filters.userPlaceholder")} maxLength={254} />
        <FilterField name="action" label={t("filters.action")} value={filters.action} errors={errors} placeholder={t("filters.actionPlaceholder")} maxLength={60} />
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
            <p className="py-6 text-center text-sm text-muted-foreground">{t("audit.empty")}</p>
          ) : (
            <table className="w-full text-sm">
              <thead>
                <tr className="text-left text-muted-foreground">
                  <th className="py-2">{t("audit.when")}</th>
                  <th>{t("audit.who")}</th>
                  <th>{t("audit.account")}</th>
                  <th>{t("audit.action")}</th>
                  <th>{t("audit.changes")}</th>
                </tr>
              </thead>
              <tbody>
                {data.map((e) => (
                  <tr key={e.id} data-audit-id={e.id} className="border-t align-top">
                    <td className="py-2 whitespace-nowrap">{formatDate(e.created_at, lng, true)}</td>
                    <td>
                      {e.user_email ? (
                        <Link to={hrefWith(PATH, { ...filters, user: e.user_email })} className="underline">
                          {e.user_email}
                        </Link>
                      ) : (
                        <span className="text-muted-foreground">{t("audit.system")}</span>
                      )}
                      {e.ip ? <div className="text-xs text-muted-foreground">{e.ip}</div> : null}
                    </td>
                    <td>
                      {e.account_id ? (
                        <Link to={hrefWith(PATH, { ...filters, account: e.account_id })} className="underline">
                          {e.account_name ?? e.account_id}
                        </Link>
                      ) : (
                        "—"
                      )}
                    </td>
                    <td>
                      <Link to={hrefWith(PATH, { ...filters, action: e.action })} className="underline">
                        {e.description}
                      </Link>
                      <div className="font-mono text-xs text-muted-foreground">{e.action}</div>
                    </td>
                    <td>
                      {e.changes.length === 0 ? (
                        "—"
                      ) : (
                        <ul className="space-y-0.5">
                          {e.changes.map((c) => (
                            <li key={c.field} data-field={c.field}>
                              <span className="font-medium">{c.field}</span>:{" "}
                              {c.before !== null ? (
                                <>
                                  <del className="text-destructive">{c.before}</del> →{" "}
                                </>
                              ) : null}
                              {c.after !== null ? (
                                <ins className="text-emerald-700 no-underline">{c.after}</ins>
                              ) : (
                                <span className="text-muted-foreground">{t("audit.removed")}</span>
                              )}
                            </li>
                          ))}
                        </ul>
                      )}
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
