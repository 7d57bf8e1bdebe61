/** E-mail messages, one line each (/mail/history and platform staff's e-mail history): the date opens the detail; the status carries its tooltip. */
import { Link } from "@remix-run/react";
import { useTranslation } from "~/lib/react-i18n";
import { EmailStatusBadge } from "~/components/email/status-badge";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "~/components/ui/table";
import { formatDate, formatMoney } from "~/lib/format";
import type { Lng } from "~/lib/i18n";

export type EmailRow = {
  id: string;
  created_at: string;
  from: string;
  to: string;
  subject: string;
  status: string;
  price: number;
  currency: string;
  error_code: string | null;
  error_message: string | null;
  /** Platform staff's history: the message's account. */
  account_name?: string;
};

export function EmailMessagesTable({ rows, lng, detailHref, account = false }: { rows: EmailRow[]; lng: Lng; detailHref: (id: string) => string; account?: boolean }) {
  const { t } = useTranslation("emailReports");
  return (
    <Table>
      <TableHeader>
        <TableRow>
          <TableHead>{t("history.columns.date")}</TableHead>
          {account ? <TableHead>{t("history.columns.account")}</TableHead> : null}
          <TableHead>{t("history.columns.from")}</TableHead>
          <TableHead>{t("history.columns.to")}</TableHead>
          <TableHead>{t("history.columns.subject")}</TableHead>
          <TableHead className="text-right">{t("history.columns.price")}</TableHead>
          <TableHead>{t("history.columns.status")}</TableHead>
        </TableRow>
      </TableHeader>
      <TableBody>
        {rows.map((m) => (
          <TableRow key={m.id} data-message-id={m.id}>
            <TableCell className="whitespace-nowrap">
              <Link to={detailHref(m.id)} className="text-primary hover:underline" aria-label={t("history.open", { date: formatDate(m.created_at, lng, true) })}>
                <time dateTime={m.created_at}>{formatDate(m.created_at, lng, true)}</time>
              </Link>
            </TableCell>
            {account ? (
              <TableCell className="whitespace-nowrap" data-col="account">
                {m.account_name}
              </TableCell>
            ) : null}
            <TableCell className="whitespace-nowrap">{m.from}</TableCell>
            <TableCell className="whitespace-nowrap" data-col="to">
              {m.to}
            </TableCell>
            <TableCell className="max-w-xs truncate" title={m.subject}>
              {m.subject}
            </TableCell>
            <TableCell className="text-right tabular-nums whitespace-nowrap">{formatMoney(m.price, m.currency, lng)}</TableCell>
            <TableCell data-col="status">
              <EmailStatusBadge status={m.status} errorCode={m.error_code} errorMessage={m.error_message} />
            </TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}
