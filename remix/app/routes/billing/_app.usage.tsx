/**
 * /usage: what the account used and what it cost (issue 18), GET /api/usage's use-case. A GET form
 * (no script needed): the last 7 or 30 days, or a custom range of São Paulo dates (at most 31
 * days), its errors translated under their field; the period's totals, a table per channel and
 * route (the product) and one per day, in quantity and money. Refunded failures count in the
 * quantity, not in the money (what the ledger charged).
 */
import { json, type LoaderFunctionArgs } from "@remix-run/node";
import { Form, useLoaderData, useRouteLoaderData } from "@remix-run/react";
import { useTranslation } from "~/lib/react-i18n";
import { isAppError } from "~api/lib/errors";
import { getUsage, type Usage } from "~api/usage/usage";
import { ErrorText } from "~/components/forms/fields";
import { PageHeader } from "~/components/shell/page-header";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "~/components/ui/card";
import { Input } from "~/components/ui/input";
import { Label } from "~/components/ui/label";
import { Table, TableBody, TableCell, TableFooter, TableHead, TableHeader, TableRow } from "~/components/ui/table";
import { requireRoute } from "~/lib/auth.server";
import { formatMoney } from "~/lib/format";
import type { Lng } from "~/lib/i18n";
import type { RootData } from "~/root";

export const handle = { crumb: "usage:crumbs.usage" };

const PERIODS = ["7d", "30d", "custom"] as const;
type Values = { period: string; from: string; to: string };

/**
 * The form's fields as the use-case's input: a fixed period ignores the date inputs (the form
 * always sends them, prefilled), "custom" takes them; dates without a period are a custom range.
 */
function inputOf(v: Values) {
  if (v.period === "custom" || (!v.period && (v.from || v.to))) return { from: v.from, to: v.to };
  return { period: v.period || "7d" };
}

export async function loader({ request }: LoaderFunctionArgs) {
  const ctx = await requireRoute(request);
  const params = new URL(request.url).searchParams;
  const values: Values = { period: params.get("period")?.trim() ?? "", from: params.get("from")?.trim() ?? "", to: params.get("to")?.trim() ?? "" };
  let usage: Usage | null = null;
  let errors: Record<string, string[]> = {};
  try {
    usage = await getUsage(ctx, inputOf(values));
  } catch (e) {
    if (!isAppError(e) || e.code !== "VALIDATION") throw e;
    errors = e.fields ?? {};
  }
  return json({ usage, values, errors }, { headers: { "Cache-Control": "private, no-store" } });
}

/** A São Paulo date (YYYY-MM-DD, already the day it names) in the reader's order, four-digit year. */
const DAY_ORDER: Record<Lng, (y: string, m: string, d: string) => string> = {
  "pt-BR": (y, m, d) => `${d}/${m}/${y}`,
  en: (y, m, d) => `${m}/${d}/${y}`,
  es: (y, m, d) => `${d}/${m}/${y}`,
  zh: (y, m, d) => `${y}/${m}/${d}`,
};
function formatDay(day: string, lng: Lng) {
  const [y, m, d] = day.split("-");
  return (DAY_ORDER[lng] ?? DAY_ORDER["pt-BR"])(y, m, d);
}

export default function UsageScreen() {
  const { usage: u, values, errors } = useLoaderData<typeof loader>();
  const lng = (useRouteLoaderData<RootData>("root")?.lng ?? "pt-BR") as Lng;
  const { t } = useTranslation("usage");
  const count = (n: number) => new Intl.NumberFormat(lng).format(n);
  const money = (n: number) => formatMoney(n, u?.currency ?? "BRL", lng);
  const channel = (c: string) => t(`channels.${c}`, { defaultValue: c });
  const route = (r: string | null) => r ?? t("noRoute");
  const shownPeriod = values.period || (values.from || values.to ? "custom" : "7d");
  return (
    <div className="space-y-6">
      <PageHeader description={t("description")} />
      <Card>
        <CardHeader>
          <Form method="get" action="/usage" aria-label={t("form.label")} className="space-y-4">
            <fieldset className="flex flex-wrap gap-4">
              <legend className="mb-2 text-sm font-medium">{t("form.period")}</legend>
              {PERIODS.map((p) => (
                <label key={p} className="flex items-center gap-2 text-sm">
                  <input type="radio" name="period" value={p} defaultChecked={shownPeriod === p} />
                  {t(`form.periods.${p}`)}
                </label>
              ))}
            </fieldset>
            <ErrorText errors={errors.period} />
            <div className="flex flex-wrap items-start gap-3">
              {(["from", "to"] as const).map((k) => (
                <div key={k} className="grid gap-1.5">
                  <Label htmlFor={`usage-${k}`}>{t(`form.${k}`)}</Label>
                  <Input
                    id={`usage-${k}`}
                    type="date"
                    name={k}
                    defaultValue={values[k] || u?.[k] || ""}
                    aria-invalid={errors[k]?.length ? true : undefined}
                    aria-describedby={errors[k]?.length ? `usage-${k}-error` : undefined}
                  />
                  <ErrorText id={`usage-${k}-error`} errors={errors[k]} />
                </div>
              ))}
              <Button type="submit" variant="secondary" className="mt-6">
                {t("form.submit")}
              </Button>
            </div>
            <p className="text-xs text-muted-foreground">{t("form.customHint")}</p>
          </Form>
        </CardHeader>
      </Card>
      {u ? (
        <>
          <p className="text-sm text-muted-foreground" data-usage-range>
            {t("range", { from: formatDay(u.from, lng), to: formatDay(u.to, lng) })}
          </p>
          <div className="grid gap-4 sm:grid-cols-3" data-usage-totals>
            {(
              [
                ["quantity", count(u.totals.quantity)],
                ["refunded", count(u.totals.refunded)],
                ["amount", money(u.totals.amount)],
              ] as const
            ).map(([k, v]) => (
              <Card key={k}>
                <CardContent className="pt-6">
                  <p className="text-sm text-muted-foreground">{t(`totals.${k}`)}</p>
                  <p className="text-2xl font-semibold tabular-nums" data-total={k}>
                    {v}
                  </p>
                </CardContent>
              </Card>
            ))}
          </div>
          {u.channels.length === 0 ? (
            <Card>
              <CardContent className="pt-6">
                <p className="py-6 text-center text-sm text-muted-foreground" data-usage-empty>
                  {t("empty")}
                </p>
              </CardContent>
            </Card>
          ) : (
            <>
              <Card>
                <CardHeader>
                  <CardTitle>{t("products.title")}</CardTitle>
                </CardHeader>
                <CardContent>
                  <Table data-usage-table="products">
                    <TableHeader>
                      <TableRow>
                        <TableHead>{t("products.channel")}</TableHead>
                        <TableHead>{t("products.route")}</TableHead>
                        <TableHead className="text-right">{t("products.quantity")}</TableHead>
                        <TableHead className="text-right">{t("products.refunded")}</TableHead>
                        <TableHead className="text-right">{t("products.segments")}</TableHead>
                        <TableHead className="text-right">{t("products.amount")}</TableHead>
                      </TableRow>
                    </TableHeader>
                    <TableBody>
                      {u.channels.map((c) => (
                        <TableRow key={`${c.channel}:${c.route ?? ""}`} data-channel={c.channel} data-route={c.route ?? ""}>
                          <TableCell>{channel(c.channel)}</TableCell>
                          <TableCell>{route(c.route)}</TableCell>
                          <Num col="quantity">{count(c.quantity)}</Num>
                          <Num col="refunded">{count(c.refunded)}</Num>
                          <Num col="segments">{count(c.segments)}</Num>
                          <Num col="amount">{money(c.amount)}</Num>
                        </TableRow>
                      ))}
                    </TableBody>
                    <TableFooter>
                      <TableRow data-row="total">
                        <TableCell colSpan={2}>{t("products.total")}</TableCell>
                        <Num col="quantity">{count(u.totals.quantity)}</Num>
                        <Num col="refunded">{count(u.totals.refunded)}</Num>
                        <Num col="segments">{count(u.totals.segments)}</Num>
                        <Num col="amount">{money(u.totals.amount)}</Num>
                      </TableRow>
                    </TableFooter>
                  </Table>
                  <p className="mt-3 text-xs text-muted-foreground">{t("refundedNote")}</p>
                </CardContent>
              </Card>
              <Card>
                <CardHeader>
                  <CardTitle>{t("days.title")}</CardTitle>
                </CardHeader>
                <CardContent>
                  <Table data-usage-table="days">
                    <TableHeader>
                      <TableRow>
                        <TableHead>{t("days.date")}</TableHead>
                        <TableHead>{t("products.channel")}</TableHead>
                        <TableHead>{t("products.route")}</TableHead>
                        <TableHead className="text-right">{t("products.quantity")}</TableHead>
                        <TableHead className="text-right">{t("products.refunded")}</TableHead>
                        <TableHead className="text-right">{t("products.amount")}</TableHead>
                      </TableRow>
                    </TableHeader>
                    <TableBody>
                      {u.days.map((d) => (
                        <TableRow key={`${d.date}:${d.channel}:${d.route ?? ""}`} data-date={d.date} data-channel={d.channel} data-route={d.route ?? ""}>
                          <TableCell data-col="date">{formatDay(d.date, lng)}</TableCell>
                          <TableCell>{channel(d.channel)}</TableCell>
                          <TableCell>{route(d.route)}</TableCell>
                          <Num col="quantity">{count(d.quantity)}</Num>
                          <Num col="refunded">{count(d.refunded)}</Num>
                          <Num col="amount">{money(d.amount)}</Num>
                        </TableRow>
                      ))}
                    </TableBody>
                  </Table>
                </CardContent>
              </Card>
            </>
          )}
        </>
      ) : null}
    </div>
  );
}

/** A figure of the usage tables: right-aligned, digits in columns, named by its column for the tests and readers. */
function Num({ col, children }: { col: string; children: React.ReactNode }) {
  return (
    <TableCell data-col={col} className="text-right tabular-nums">
      {children}
    </TableCell>
  );
}
