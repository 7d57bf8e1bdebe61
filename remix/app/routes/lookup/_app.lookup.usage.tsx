/**
 * /lookup/usage: lookups per São Paulo day over a period (a GET form: from, to; the last 30 days
 * by default) — how many, valid, invalid and their cost in the account's currency, with totals.
 */
import type { LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Form, useLoaderData, useRouteLoaderData } from "@remix-run/react";
import { useTranslation } from "~/lib/react-i18n";
import { isAppError } from "~api/lib/errors";
import { lookupUsage, type LookupUsage } from "~api/lookup/services";
import { FormErrors } from "~/components/forms/fields";
import { PageHeader } from "~/components/shell/page-header";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardHeader } from "~/components/ui/card";
import { FormField } from "~/components/ui/form-field";
import { Input } from "~/components/ui/input";
import { Table, TableBody, TableCell, TableFooter, TableHead, TableHeader, TableRow } from "~/components/ui/table";
import { requireRoute } from "~/lib/auth.server";
import { formatMoney } from "~/lib/format";
import type { RootData } from "~/root";

export const handle = { crumb: "lookup:usage.crumb" };

export async function loader({ request }: LoaderFunctionArgs) {
  const ctx = await requireRoute(request);
  const q = new URL(request.url).searchParams;
  const input = { from: q.get("from") ?? undefined, to: q.get("to") ?? undefined };
  try {
    return json({ usage: await lookupUsage(ctx, input), errors: null as string[] | null, input });
  } catch (e) {
    if (!isAppError(e) || e.code !== "VALIDATION") throw e;
    return json({ usage: await lookupUsage(ctx, {}), errors: Object.values(e.fields ?? {}).flat(), input }, { status: 422 });
  }
}

const day = (d: string, lng: string) => new Date(`${d}T12:00:00Z`).toLocaleDateString(lng, { timeZone: "UTC", day: "2-digit", month: "2-digit", year: "numeric" });

export default function LookupUsageScreen() {
  const { usage, errors, input } = useLoaderData<typeof loader>();
  const u: LookupUsage = usage;
  const lng = useRouteLoaderData<RootData>("root")?.lng ?? "pt-BR";
  const { t } = useTranslation("lookup");
  return (
    <div className="space-y-6">
      <PageHeader description={t("lookup:usage.description")} />
      <Card>
        <CardContent className="pt-6">
          <Form method="get" className="flex flex-wrap items-end gap-4">
            <FormErrors errors={errors} />
            <FormField label={t("lookup:usage.from")} htmlFor="usage-from">
              <Input id="usage-from" name="from" type="date" defaultValue={errors ? (input.from ?? u.from) : u.from} />
            </FormField>
            <FormField label={t("lookup:usage.to")} htmlFor="usage-to">
              <Input id="usage-to" name="to" type="date" defaultValue={errors ? (input.to ?? u.to) : u.to} />
            </FormField>
            <Button type="submit">{t("lookup:usage.submit")}</Button>
          </Form>
        </CardContent>
      </Card>
      <Card>
        <CardHeader>
          <h2 className="leading-none font-semibold">{t("lookup:usage.title", { from: day(u.from, lng), to: day(u.to, lng) })}</h2>
        </CardHeader>
        <CardContent>
          {u.days.length === 0 ? (
            <p className="py-6 text-center text-sm text-muted-foreground">{t("lookup:usage.empty")}</p>
          ) : (
            <Table region={t("lookup:usage.title", { from: day(u.from, lng), to: day(u.to, lng) })}>
              <TableHeader>
                <TableRow>
                  <TableHead>{t("lookup:usage.day")}</TableHead>
                  <TableHead className="text-right">{t("lookup:usage.lookups")}</TableHead>
                  <TableHead className="text-right">{t("lookup:usage.valid")}</TableHead>
                  <TableHead className="text-right">{t("lookup:usage.invalid")}</TableHead>
                  <TableHead className="text-right">{t("lookup:usage.cost")}</TableHead>
                </TableRow>
              </TableHeader>
              <TableBody>
                {u.days.map((d) => (
                  <TableRow key={d.day} data-day={d.day}>
                    <TableCell>{day(d.day, lng)}</TableCell>
                    <TableCell className="text-right tabular-nums">{d.lookups}</TableCell>
                    <TableCell className="text-right tabular-nums">{d.valid}</TableCell>
                    <TableCell className="text-right tabular-nums">{d.invalid}</TableCell>
                    <TableCell className="text-right tabular-nums">{formatMoney(d.cost, u.currency, lng)}</TableCell>
                  </TableRow>
                ))}
              </TableBody>
              <TableFooter>
                <TableRow data-total>
                  <TableCell>{t("lookup:usage.total")}</TableCell>
                  <TableCell className="text-right tabular-nums">{u.total.lookups}</TableCell>
                  <TableCell className="text-right tabular-nums">{u.total.valid}</TableCell>
                  <TableCell className="text-right tabular-nums">{u.total.invalid}</TableCell>
                  <TableCell className="text-right tabular-nums">{formatMoney(u.total.cost, u.currency, lng)}</TableCell>
                </TableRow>
              </TableFooter>
            </Table>
          )}
        </CardContent>
      </Card>
    </div>
  );
}
