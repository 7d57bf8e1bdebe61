/**
 * Pieces of platform staff's e-mail report screens (routes/admin/_app.admin.email.reports.*): the
 * accounts with the most e-mails of the period (delivered, opened, bounced, cost in the account's
 * currency; a name opens that account's figures) and the period and account form. The account field and amounts in several
 * currencies are the WhatsApp staff screens' (~/components/whatsapp/admin-reports).
 */
import { Link } from "@remix-run/react";
import { useTranslation } from "~/lib/react-i18n";
import type { EmailAccountFigures } from "~api/email/admin-reports";
import { FiguresTable } from "~/components/charts/figures-table";
import { formatCount } from "~/components/sms-reports/format";
import { RangeForm } from "~/components/sms-reports/range-form";
import { Card, CardContent, CardHeader, CardTitle } from "~/components/ui/card";
import { AccountField, type AccountFilterData, AccountMatches, hrefOf } from "~/components/whatsapp/admin-reports";
import { formatMoney } from "~/lib/format";
import type { Lng } from "~/lib/i18n";

export function EmailAccountsCard({ rows, lng, href }: { rows: EmailAccountFigures[]; lng: Lng; href: (account: { id: string; name: string }) => string }) {
  const { t } = useTranslation("emailReports");
  const n = (v: number) => formatCount(v, lng);
  return (
    <Card data-report="accounts">
      <CardHeader>
        <CardTitle>
          <h2>{t("admin.byAccount")}</h2>
        </CardTitle>
      </CardHeader>
      <CardContent>
        {rows.length === 0 ? (
          <p className="text-sm text-muted-foreground">{t("admin.noMessages")}</p>
        ) : (
          <FiguresTable
            head={t("history.columns.account")}
            rows={rows}
            rowKey={(r) => r.account.id}
            rowLabel={(r) => (
              <Link to={href(r.account)} className="text-primary hover:underline">
                {r.account.name}
              </Link>
            )}
            rowAttr="account"
            columns={[
              { key: "messages", label: t("dashboard.messages"), value: (r) => n(r.messages) },
              { key: "delivered", label: t("dashboard.delivered"), value: (r) => n(r.delivered) },
              { key: "opened", label: t("dashboard.opened"), value: (r) => n(r.opened) },
              { key: "bounced", label: t("admin.bounced"), value: (r) => n(r.bounced) },
              { key: "cost", label: t("dashboard.cost"), value: (r) => formatMoney(r.cost, r.currency, lng) },
            ]}
          />
        )}
      </CardContent>
    </Card>
  );
}

/** The period and account form of a staff screen at `path` (a GET form), the accounts a name fits, and which account the figures are of. */
export function StaffPeriodFilter({
  path,
  period,
  errors,
  filter,
  account,
}: {
  path: string;
  period: { from: string; to: string };
  errors: Record<string, string[]>;
  filter: AccountFilterData;
  account: { name: string } | null | undefined;
}) {
  const { t } = useTranslation("emailReports");
  return (
    <>
      <Card>
        <CardHeader>
          <RangeForm action={path} values={period} errors={errors}>
            <AccountField filter={filter} />
          </RangeForm>
        </CardHeader>
      </Card>
      <AccountMatches matches={filter.matches} href={(a) => hrefOf(path, { ...period, account: a.name, account_id: a.id })} />
      {account ? <p className="text-sm text-muted-foreground">{t("admin.ofAccount", { name: account.name })}</p> : null}
    </>
  );
}
