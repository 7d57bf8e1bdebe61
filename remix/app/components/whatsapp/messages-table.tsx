/** WhatsApp messages, one line each (the overview's last messages and /whatsapp/history): the date opens the detail. */
import { Link } from "@remix-run/react";
import { useTranslation } from "~/lib/react-i18n";
import { SmsStatusBadge } from "~/components/sms-reports/status-badge";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "~/components/ui/table";
import { formatDate, formatMoney } from "~/lib/format";
import type { Lng } from "~/lib/i18n";

export type MessageRow = {
  id: string;
  created_at: string;
  direction: string;
  type: string;
  from: string;
  to: string;
  body: string;
  status: string;
  price: number;
  currency: string;
  /** Platform staff's history: the message's account. */
  account_name?: string;
};

/**
 * `base`: /whatsapp or /whatsapp/jv, where the detail links go (`detailHref` instead: platform
 * staff's history, whose rows also show their account with `account`).
 */
export function MessagesTable({
  rows,
  lng,
  base = "/whatsapp",
  detailHref,
  account = false,
  typeLabel,
}: {
  rows: MessageRow[];
  lng: Lng;
  base?: string;
  detailHref?: (id: string) => string;
  account?: boolean;
  /** A channel's own names of its message types (RCS's history); default WhatsApp's. */
  typeLabel?: (type: string) => string;
}) {
  const { t } = useTranslation("whatsapp");
  return (
    <Table>
      <TableHeader>
        <TableRow>
          <TableHead>{t("history.columns.date")}</TableHead>
          {account ? <TableHead>{t("history.columns.account")}</TableHead> : null}
          <TableHead>{t("history.columns.type")}</TableHead>
          <TableHead>{t("history.columns.from")}</TableHead>
          <TableHead>{t("history.columns.to")}</TableHead>
          <TableHead>{t("history.columns.message")}</TableHead>
          <TableHead className="text-right">{t("history.columns.price")}</TableHead>
          <TableHead>{t("history.columns.status")}</TableHead>
        </TableRow>
      </TableHeader>
      <TableBody>
        {rows.map((m) => (
          <TableRow key={m.id} data-message-id={m.id}>
            <TableCell className="whitespace-nowrap">
              <Link
                to={detailHref ? detailHref(m.id) : `${base}/history/${m.id}`}
                className="text-primary hover:underline"
                aria-label={t("history.open", { date: formatDate(m.created_at, lng, true) })}
              >
                <time dateTime={m.created_at}>{formatDate(m.created_at, lng, true)}</time>
              </Link>
            </TableCell>
            {account ? (
              <TableCell className="whitespace-nowrap" data-col="account">
                {m.account_name}
              </TableCell>
            ) : null}
            <TableCell className="whitespace-nowrap">
              {typeLabel ? typeLabel(m.type) : t(`messageType.${m.type}`, { defaultValue: m.type })} · {t(`direction.${m.direction}`)}
            </TableCell>
            <TableCell className="whitespace-nowrap">{m.from}</TableCell>
            <TableCell className="whitespace-nowrap">{m.to}</TableCell>
            <TableCell className="max-w-xs truncate" title={m.body}>
              {m.body}
            </TableCell>
            <TableCell className="text-right tabular-nums whitespace-nowrap">{formatMoney(m.price, m.currency, lng)}</TableCell>
            <TableCell>
              <SmsStatusBadge status={m.status} />
            </TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}
