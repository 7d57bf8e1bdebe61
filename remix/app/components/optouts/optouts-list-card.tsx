/**
 * The opt-outs list of /sms/optouts (every channel, with a channel column) and /whatsapp/optouts
 * (the channel's own): search, pages, the number, its source and keyword, when, and a remove per
 * number (a confirmation disclosure posting intent=delete and id). Plain forms: no JavaScript needed.
 */
import { useRouteLoaderData } from "@remix-run/react";
import { useTranslation } from "~/lib/react-i18n";
import { ConfirmDelete } from "~/components/forms/confirm-delete";
import { NumberListCard } from "~/components/optouts/number-list-card";
import { TableCell, TableRow } from "~/components/ui/table";
import { formatDate } from "~/lib/format";
import type { FormReply } from "~/lib/forms.server";
import type { RootData } from "~/root";

export type OptoutRow = { id: string; recipient: string; recipient_formatted: string; channel: string; source: string; keyword: string | null; created_at: string };

export function OptoutsListCard({
  path,
  idPrefix,
  q,
  list,
  showChannel,
  last,
}: {
  path: string;
  idPrefix: string;
  q: string;
  list: { data: OptoutRow[]; page?: number | null; last_page?: number | null };
  /** The channel column: the list holds several channels' opt-outs. */
  showChannel: boolean;
  /** The route's last form reply: a refused remove shows on its row. */
  last: FormReply | undefined;
}) {
  const lng = useRouteLoaderData<RootData>("root")?.lng ?? "pt-BR";
  const { t } = useTranslation(["smpp", "common"]);
  const sent = last?.result.initialValue as { intent?: string; id?: string } | undefined;
  return (
    <NumberListCard
      path={path}
      idPrefix={idPrefix}
      q={q}
      list={{ ...list, page: list.page ?? 1, last_page: list.last_page ?? 1 }}
      texts={{ search: t("optouts.search"), searchSubmit: t("optouts.searchSubmit"), empty: t("optouts.empty") }}
      columns={[
        t("optouts.columns.number"),
        ...(showChannel ? [t("optouts.columns.channel")] : []),
        t("optouts.columns.source"),
        t("optouts.columns.keyword"),
        t("optouts.columns.createdAt"),
        t("optouts.columns.actions"),
      ]}
      row={(o) => (
        <TableRow key={o.id} data-optout={o.recipient}>
          <TableCell className="font-medium">{o.recipient_formatted}</TableCell>
          {showChannel ? <TableCell>{t(`optouts.channels.${o.channel}`, { defaultValue: o.channel })}</TableCell> : null}
          <TableCell>{t(`optouts.sources.${o.source}`)}</TableCell>
          <TableCell>{o.keyword ?? "—"}</TableCell>
          <TableCell>{formatDate(o.created_at, lng, true)}</TableCell>
          <TableCell className="text-right">
            <div className="flex justify-end">
              <ConfirmDelete
                id={o.id}
                errors={sent?.intent === "delete" && sent.id === o.id ? last?.result.error?.[""] : undefined}
                summary={t("optouts.delete.summary")}
                label={t("optouts.delete.label", { number: o.recipient_formatted })}
                body={t("optouts.delete.body", { number: o.recipient_formatted })}
                confirm={t("optouts.delete.confirm")}
              />
            </div>
          </TableCell>
        </TableRow>
      )}
    />
  );
}
