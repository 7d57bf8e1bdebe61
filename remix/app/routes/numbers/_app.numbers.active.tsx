/**
 * /numbers/active: the account's short codes and WhatsApp numbers and what they cost (issue 18;
 * spec: "/numbers/active admin"; ADR 047), GET /api/numbers/active's use-case. Read-only, no script
 * needed: each with its status and monthly price, and the monthly total.
 */
import { json, type LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData, useRouteLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { activeNumbers } from "~api/seats/screens";
import { PageHeader } from "~/components/shell/page-header";
import { Card, CardContent, CardHeader, CardTitle } from "~/components/ui/card";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "~/components/ui/table";
import { orHttpError, requireRoute } from "~/lib/auth.server";
import { formatDate, formatMoney } from "~/lib/format";
import type { Lng } from "~/lib/i18n";
import type { RootData } from "~/root";

export const handle = { crumb: "seats:crumbs.numbers" };

export async function loader({ request }: LoaderFunctionArgs) {
  const ctx = await requireRoute(request);
  const numbers = await orHttpError(activeNumbers(ctx));
  return json({ numbers }, { headers: { "Cache-Control": "private, no-store" } });
}

export default function ActiveNumbers() {
  const { numbers: n } = useLoaderData<typeof loader>();
  const lng = (useRouteLoaderData<RootData>("root")?.lng ?? "pt-BR") as Lng;
  const { t } = useTranslation("seats");
  const money = (v: number) => formatMoney(v, n.currency, lng);
  return (
    <div className="space-y-6">
      <PageHeader description={t("numbers.description")} />
      <Card data-figure="total">
        <CardHeader className="pb-2">
          <p className="text-sm text-muted-foreground">{t("numbers.monthlyTotal")}</p>
        </CardHeader>
        <CardContent>
          <p className="text-lg font-semibold">{money(n.monthly_total)}</p>
        </CardContent>
      </Card>
      <Card>
        <CardHeader>
          <CardTitle>{t("numbers.shortCodes")}</CardTitle>
        </CardHeader>
        <CardContent>
          {n.short_codes.length ? (
            <Table data-short-codes>
              <TableHeader>
                <TableRow>
                  <TableHead>{t("numbers.number")}</TableHead>
                  <TableHead>{t("numbers.nickname")}</TableHead>
                  <TableHead>{t("numbers.status")}</TableHead>
                  <TableHead>{t("numbers.since")}</TableHead>
                  <TableHead className="text-right">{t("numbers.monthlyPrice")}</TableHead>
                </TableRow>
              </TableHeader>
              <TableBody>
                {n.short_codes.map((s) => (
                  <TableRow key={s.id}>
                    <TableCell className="font-mono">{s.number}</TableCell>
                    <TableCell>{s.nickname}</TableCell>
                    <TableCell>{t(`numbers.statuses.${s.status}`, { defaultValue: s.status })}</TableCell>
                    <TableCell>{formatDate(s.since, lng)}</TableCell>
                    <TableCell className="text-right">{money(s.monthly_price)}</TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          ) : (
            <p className="text-sm text-muted-foreground">{t("numbers.noShortCodes")}</p>
          )}
        </CardContent>
      </Card>
      <Card>
        <CardHeader>
          <CardTitle>{t("numbers.whatsapp")}</CardTitle>
        </CardHeader>
        <CardContent>
          {n.whatsapp_numbers.length ? (
            <Table data-whatsapp-numbers>
              <TableHeader>
                <TableRow>
                  <TableHead>{t("numbers.number")}</TableHead>
                  <TableHead>{t("numbers.name")}</TableHead>
                  <TableHead>{t("numbers.status")}</TableHead>
                  <TableHead>{t("numbers.since")}</TableHead>
                  <TableHead className="text-right">{t("numbers.monthlyPrice")}</TableHead>
                </TableRow>
              </TableHeader>
              <TableBody>
                {n.whatsapp_numbers.map((w) => (
                  <TableRow key={w.id}>
                    <TableCell className="font-mono">{w.number}</TableCell>
                    <TableCell>{w.name}</TableCell>
                    <TableCell>{w.status}</TableCell>
                    <TableCell>{formatDate(w.since, lng)}</TableCell>
                    <TableCell className="text-right">{money(w.monthly_price)}</TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          ) : (
            <p className="text-sm text-muted-foreground">{t("numbers.noWhatsapp")}</p>
          )}
        </CardContent>
      </Card>
    </div>
  );
}
