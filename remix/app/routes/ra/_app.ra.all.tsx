/**
 * /ra/all (issue 23, ADR 067): every imported complaint of the account, newest first, filtered by
 * status and text (a GET form: no JavaScript), in keyset pages ("Next page" carries the cursor).
 */
import type { LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Form, Link, useLoaderData, useRouteLoaderData } from "@remix-run/react";
import { ComplaintsTable } from "~/components/ra/parts";
import { FormErrors } from "~/components/forms/fields";
import { PageHeader } from "~/components/shell/page-header";
import { Button } from "~/components/ui/button";
import { Card, CardContent } from "~/components/ui/card";
import { Input } from "~/components/ui/input";
import { Label } from "~/components/ui/label";
import { NativeSelect, NativeSelectOption } from "~/components/ui/native-select";
import { requireRoute } from "~/lib/auth.server";
import { useTranslation } from "~/lib/react-i18n";
import type { RootData } from "~/root";
import { isAppError } from "~api/lib/errors";
import { RA_STATUSES } from "~api/ra/constants";
import { listComplaints } from "~api/ra/services";

export const handle = { crumb: "ra:all.crumb" };

export async function loader({ request }: LoaderFunctionArgs) {
  const ctx = await requireRoute(request, "/ra/all");
  const sp = new URL(request.url).searchParams;
  const filters = { status: sp.get("status") || undefined, q: sp.get("q") || undefined, cursor: sp.get("cursor") || undefined };
  try {
    return json({ page: await listComplaints(ctx, filters), filters, errors: null as string[] | null });
  } catch (e) {
    if (!isAppError(e) || e.code !== "VALIDATION") throw e;
    return json({ page: { data: [], next_cursor: null }, filters, errors: Object.values(e.fields ?? {}).flat() }, { status: 422 });
  }
}

export default function RaAll() {
  const { page, filters, errors } = useLoaderData<typeof loader>();
  const lng = useRouteLoaderData<RootData>("root")?.lng ?? "pt-BR";
  const { t } = useTranslation("ra");
  const next = new URLSearchParams();
  if (filters.status) next.set("status", filters.status);
  if (filters.q) next.set("q", filters.q);
  const first = `/ra/all${next.size ? `?${next}` : ""}`;
  if (page.next_cursor) next.set("cursor", page.next_cursor);
  return (
    <div className="space-y-6">
      <PageHeader
        description={t("all.description")}
        actions={
          <Button asChild variant="outline">
            <Link to="/ra">{t("nav.overview")}</Link>
          </Button>
        }
      />
      <Card>
        <CardContent className="space-y-4 pt-6">
          <Form method="get" className="flex flex-wrap items-end gap-3" aria-label={t("all.filters")}>
            <div className="grid gap-1.5">
              <Label htmlFor="ra-status">{t("list.status")}</Label>
              <NativeSelect id="ra-status" name="status" defaultValue={filters.status ?? ""}>
                <NativeSelectOption value="">{t("all.anyStatus")}</NativeSelectOption>
                {RA_STATUSES.map((s) => (
                  <NativeSelectOption key={s} value={s}>
                    {t(`status.${s}`)}
                  </NativeSelectOption>
                ))}
              </NativeSelect>
            </div>
            <div className="grid gap-1.5">
              <Label htmlFor="ra-q">{t("all.search")}</Label>
              <Input id="ra-q" name="q" defaultValue={filters.q ?? ""} maxLength={200} />
            </div>
            <Button type="submit" variant="outline">
              {t("all.filter")}
            </Button>
          </Form>
          <FormErrors errors={errors} />
          <ComplaintsTable complaints={page.data} lng={lng} />
          <div className="flex gap-2">
            {filters.cursor ? (
              <Button asChild variant="outline" size="sm">
                <Link to={first}>{t("all.firstPage")}</Link>
              </Button>
            ) : null}
            {page.next_cursor ? (
              <Button asChild variant="outline" size="sm">
                <Link to={`/ra/all?${next}`} rel="next">
                  {t("all.nextPage")}
                </Link>
              </Button>
            ) : null}
          </div>
        </CardContent>
      </Card>
    </div>
  );
}
