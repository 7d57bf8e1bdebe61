/**
 * /live/billing: the account's chat agents and what they cost (issue 18, spec section 6: "adding
 * an agent is charged"; ADR 047), GET /api/live/billing's use-case. Read-only, no script needed:
 * the price per agent seat a month, the month's total, what the ledger charged for agents this São
 * Paulo month, the next renewal, and each agent (name, e-mail, role, since when an agent).
 */
import { json, type LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData, useRouteLoaderData } from "@remix-run/react";
import { useTranslation } from "~/lib/react-i18n";
import { liveBilling } from "~api/seats/screens";
import { PageHeader } from "~/components/shell/page-header";
import { Card, CardContent, CardHeader, CardTitle } from "~/components/ui/card";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "~/components/ui/table";
import { orHttpError, requireRoute } from "~/lib/auth.server";
import { formatDate, formatMoney } from "~/lib/format";
import type { Lng } from "~/lib/i18n";
import type { RootData } from "~/root";

export const handle = { crumb: "seats:crumbs.billing" };

export async function loader({ request }: LoaderFunctionArgs) {
  const ctx = await requireRoute(request);
  const billing = await orHttpError(liveBilling(ctx));
  return json({ billing }, { headers: { "Cache-Control": "private, no-store" } });
}

export default function LiveBilling() {
  const { billing: b } = useLoaderData<typeof loader>();
  const lng = (useRouteLoaderData<RootData>("root")?.lng ?? "pt-BR") as Lng;
  const { t } = useTranslation(["seats", "common"]);
  const money = (v: number) => formatMoney(v, b.currency, lng);
  const figures: Array<[string, string, string]> = [
    ["price", t("billing.price"), `${money(b.price_per_agent)} · ${b.own_price ? t("billing.ownPrice") : t("billing.defaultPrice")}`],
    ["count", t("billing.count"), new Intl.NumberFormat(lng).format(b.agents.length)],
    ["total", t("billing.monthlyTotal"), money(b.monthly_total)],
    ["charged", t("billing.charged"), money(b.charged_this_month)],
    ["renewal", t("billing.nextRenewal"), formatDate(b.next_renewal, lng)],
  ];
  return (
    <div className="space-y-6">
      <PageHeader description={t("billing.description")} />
      <dl className="grid gap-4 sm:grid-cols-3 lg:grid-cols-5" data-seat-figures>
        {figures.map(([key, label, value]) => (
          // <dt> and <dd> straight inside the card's <div>: a <dl> allows one wrapping <div> per group, not two.
          <Card key={key} data-figure={key}>
            <dt className="px-6 pb-2 text-sm text-muted-foreground">{label}</dt>
            <dd className="px-6 text-lg font-semibold">{value}</dd>
          </Card>
        ))}
      </dl>
      <Card>
        <CardHeader>
          <CardTitle>{t("billing.agents")}</CardTitle>
        </CardHeader>
        <CardContent>
          {b.agents.length ? (
            <Table data-seat-agents>
              <TableHeader>
                <TableRow>
                  <TableHead>{t("billing.name")}</TableHead>
                  <TableHead>{t("billing.email")}</TableHead>
                  <TableHead>{t("billing.role")}</TableHead>
                  <TableHead>{t("billing.since")}</TableHead>
                  <TableHead>{t("billing.paidUntil")}</TableHead>
                </TableRow>
              </TableHeader>
              <TableBody>
                {b.agents.map((a) => (
                  <TableRow key={a.membership_id}>
                    <TableCell>{a.name || a.email}</TableCell>
                    <TableCell>{a.email}</TableCell>
                    <TableCell>{t(`common:roles.${a.role}`, { defaultValue: a.role })}</TableCell>
                    <TableCell>{a.agent_since ? formatDate(a.agent_since, lng) : t("billing.unknown")}</TableCell>
                    <TableCell>{a.charged_until ? formatDate(a.charged_until, lng) : t("billing.unknown")}</TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          ) : (
            <p className="text-sm text-muted-foreground">{t("billing.none")}</p>
          )}
        </CardContent>
      </Card>
    </div>
  );
}
