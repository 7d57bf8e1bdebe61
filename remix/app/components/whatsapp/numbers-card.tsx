/**
 * The account's WhatsApp numbers as a card with a table, for both integrations (/whatsapp: Meta's
 * Cloud API numbers; /whatsapp/jv/numbers: the older integration's): the number, what the screen
 * adds about it (`columns`), its quality, the webhook URL the provider posts to and, for who may
 * connect numbers, a disconnect per number (a confirmation disclosure, a plain form that works
 * without JavaScript; the route's action takes intent=disconnect and id).
 */
import type { ReactNode } from "react";
import { useTranslation } from "~/lib/react-i18n";
import { ConfirmDelete } from "~/components/forms/confirm-delete";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "~/components/ui/table";
import { QualityBadge } from "~/components/whatsapp/badges";

export type NumberRow = { id: string; display_phone_number: string; phone_number_id: string; quality_rating: string | null; webhook_url: string };

export function NumbersCard<N extends NumberRow>(props: {
  title: string;
  description: string;
  empty: string;
  numbers: N[];
  /** The screen's own columns, after the number. */
  columns: Array<{ header: string; cell: (n: N) => ReactNode }>;
  canDisconnect: boolean;
  /** The last disconnect's refusal, shown on its number's row. */
  refused?: { id: string; errors: string[] | null | undefined };
}) {
  const { t } = useTranslation(["whatsapp", "common"]);
  return (
    <Card>
      <CardHeader>
        <CardTitle>
          <h2>{props.title}</h2>
        </CardTitle>
        <CardDescription>{props.description}</CardDescription>
      </CardHeader>
      <CardContent>
        {props.numbers.length === 0 ? (
          <p className="py-6 text-center text-sm text-muted-foreground">{props.empty}</p>
        ) : (
          <Table>
            <TableHeader>
              <TableRow>
                <TableHead>{t("numbers.columns.number")}</TableHead>
                {props.columns.map((c) => (
                  <TableHead key={c.header}>{c.header}</TableHead>
                ))}
                <TableHead>{t("numbers.columns.quality")}</TableHead>
                <TableHead>{t("numbers.columns.webhook")}</TableHead>
                {props.canDisconnect ? (
                  <TableHead className="text-right">
                    <span className="sr-only">{t("numbers.columns.actions")}</span>
                  </TableHead>
                ) : null}
              </TableRow>
            </TableHeader>
            <TableBody>
              {props.numbers.map((n) => (
                <TableRow key={n.id} data-number-id={n.id} data-phone={n.display_phone_number || n.phone_number_id}>
                  <TableCell className="align-top">
                    <div className="font-medium whitespace-nowrap">{n.display_phone_number || n.phone_number_id}</div>
                    <div className="text-xs text-muted-foreground">{t("numbers.phoneNumberId", { id: n.phone_number_id })}</div>
                  </TableCell>
                  {props.columns.map((c) => (
                    <TableCell key={c.header} className="align-top">
                      {c.cell(n)}
                    </TableCell>
                  ))}
                  <TableCell className="align-top">{n.quality_rating ? <QualityBadge rating={n.quality_rating} /> : "—"}</TableCell>
                  <TableCell className="max-w-xs align-top whitespace-normal">
                    <code className="break-all text-xs" data-webhook-url>
                      {n.webhook_url}
                    </code>
                  </TableCell>
                  {props.canDisconnect ? (
                    <TableCell className="text-right align-top">
                      <ConfirmDelete
                        id={n.id}
                        intent="disconnect"
                        errors={props.refused?.id === n.id ? props.refused.errors : undefined}
                        summary={t("numbers.disconnect.summary")}
                        label={t("numbers.disconnect.label", { number: n.display_phone_number })}
                        body={t("numbers.disconnect.body", { number: n.display_phone_number })}
                        confirm={t("numbers.disconnect.confirm")}
                      />
                    </TableCell>
                  ) : null}
                </TableRow>
              ))}
            </TableBody>
          </Table>
        )}
      </CardContent>
    </Card>
  );
}
