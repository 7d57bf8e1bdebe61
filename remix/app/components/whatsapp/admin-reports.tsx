/**
 * Pieces of platform staff's WhatsApp report screens (routes/admin/_app.admin.whatsapp.reports.*):
 * the account field of their GET forms, the accounts to choose from when a name fits several, the
 * per-day table (messages, delivered, read, failed: every account's costs are in several
 * currencies, so a day has no one cost), amounts in several currencies and the histories' message panel
 * (the e-mail staff screens use them too).
 */
import { Link } from "@remix-run/react";
import { useTranslation } from "~/lib/react-i18n";
import { FiguresTable } from "~/components/charts/figures-table";
import { ErrorText } from "~/components/forms/fields";
import { BarChart } from "~/components/sms-reports/bar-chart";
import { formatCount, formatDay } from "~/components/sms-reports/format";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { Input } from "~/components/ui/input";
import { Label } from "~/components/ui/label";
import { formatMoney } from "~/lib/format";
import type { Lng } from "~/lib/i18n";

type Account = { id: string; name: string };
export type AccountFilterData = { name: string; account: Account | null; matches: Account[]; errors: string[] };

/** The account field (a name; the chosen account's id rides along while the name is its own). */
export function AccountField({ filter }: { filter: AccountFilterData }) {
  const { t } = useTranslation("admin");
  return (
    <div className="grid gap-1.5">
      <Label htmlFor="report-account">{t("whatsappReports.account")}</Label>
      <Input
        id="report-account"
        name="account"
        defaultValue={filter.account?.name ?? filter.name}
        placeholder={t("whatsappReports.anyAccount")}
        maxLength={255}
        aria-invalid={filter.errors.length ? true : undefined}
        aria-describedby={filter.errors.length ? "report-account-error" : undefined}
      />
      {filter.account ? <input type="hidden" name="account_id" value={filter.account.id} /> : null}
      <ErrorText id="report-account-error" errors={filter.errors} />
    </div>
  );
}

/** A name that fits several accounts: each as a link to the same screen filtered by it. */
export function AccountMatches({ matches, href }: { matches: Account[]; href: (account: Account) => string }) {
  const { t } = useTranslation("admin");
  if (!matches.length) return null;
  return (
    <Card data-testid="account-matches">
      <CardHeader>
        <CardDescription>{t("whatsappReports.matches", { count: matches.length })}</CardDescription>
      </CardHeader>
      <CardContent>
        <ul className="flex flex-wrap gap-2">
          {matches.map((a) => (
            <li key={a.id}>
              <Link to={href(a)} className="text-primary hover:underline">
                {a.name}
              </Link>
            </li>
          ))}
        </ul>
      </CardContent>
    </Card>
  );
}

export type DayFiguresRow = { day: string; messages: number; delivered: number; read: number; failed: number; statuses: Partial<Record<string, number>> };
type Figures = Omit<DayFiguresRow, "day" | "statuses">;

/** The chart of the days (the SMS reports' bars) and the table beside it: messages, delivered (or read), read, failed, with totals. */
export function DayFigures({ rows, lng }: { rows: DayFiguresRow[]; lng: Lng }) {
  const { t } = useTranslation(["admin", "whatsapp"]);
  const totals = rows.reduce<Figures>((s, d) => ({ messages: s.messages + d.messages, delivered: s.delivered + d.delivered, read: s.read + d.read, failed: s.failed + d.failed }), {
    messages: 0,
    delivered: 0,
    read: 0,
    failed: 0,
  });
  const n = (v: number) => formatCount(v, lng);
  return (
    <>
      <BarChart data={rows.map((d) => ({ day: d.day, total: d.messages, statuses: d.statuses }))} lng={lng} label={t("whatsapp:reports.chart")} />
      <FiguresTable<Figures & { day: string }>
        head={t("whatsappReports.day")}
        rows={rows}
        rowKey={(r) => r.day}
        rowLabel={(r) => formatDay(r.day, lng, true)}
        rowAttr="day"
        columns={[
          { key: "messages", label: t("whatsapp:reports.messages"), value: (r) => n(r.messages) },
          { key: "delivered", label: t("whatsapp:reports.delivered"), value: (r) => n(r.delivered) },
          { key: "read", label: t("whatsapp:reports.read"), value: (r) => n(r.read) },
          { key: "failed", label: t("whatsapp:reports.failed"), value: (r) => n(r.failed) },
        ]}
        totals={{ label: t("whatsapp:reports.total"), row: { day: "total", ...totals } }}
      />
    </>
  );
}

/** Amounts in one or more currencies ("R$ 1,20 + US$ 0,40"); none: "—". */
export function formatAmounts(list: Array<{ currency: string; amount: number }>, lng: Lng) {
  return list.length ? list.map((m) => formatMoney(m.amount, m.currency, lng)).join(" + ") : "—";
}

/** The screen's URL with its parameters (empty ones left out). */
export function hrefOf(path: string, params: Record<string, string | undefined>) {
  const p = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v) p.set(k, v);
  const q = p.toString();
  return q ? `${path}?${q}` : path;
}

/** A staff history's message, in a panel above the list (?message={id}): its title, a link back to the list, the detail. */
export function MessagePanel({ title, close, closeHref, children }: { title: string; close: string; closeHref: string; children: React.ReactNode }) {
  return (
    <Card data-testid="message-panel">
      <CardHeader className="flex flex-row items-center justify-between gap-2">
        <CardTitle>
          <h2>{title}</h2>
        </CardTitle>
        <Button asChild variant="outline" size="sm">
          <Link to={closeHref}>{close}</Link>
        </Button>
      </CardHeader>
      <CardContent>{children}</CardContent>
    </Card>
  );
}
