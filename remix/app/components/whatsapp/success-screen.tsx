/**
 * /whatsapp/success and /whatsapp/jv/success ?message=<id>: the WhatsApp message a send accepted — its id, recipient, status
 * now, the price debited (the account's currency) — with links to its history and another send.
 * Without a message of the account it is not found.
 */
import { Link, useLoaderData, useRouteLoaderData } from "@remix-run/react";
import { CheckCircle2 } from "lucide-react";
import { useTranslation } from "react-i18next";
import { PageHeader } from "~/components/shell/page-header";
import { SmsStatusBadge } from "~/components/sms-reports/status-badge";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardHeader } from "~/components/ui/card";
import { formatDate, formatMoney } from "~/lib/format";
import type { Lng } from "~/lib/i18n";
import type { WhatsappSuccessData } from "~/lib/whatsapp.server";
import type { RootData } from "~/root";

export function WhatsappSuccessScreen() {
  const { base, message: m } = useLoaderData<WhatsappSuccessData>();
  const lng = (useRouteLoaderData<RootData>("root")?.lng ?? "pt-BR") as Lng;
  const { t } = useTranslation(["whatsapp", "common"]);
  const rows: Array<[string, string, React.ReactNode]> = [
    [
      "id",
      t("success.id"),
      <code key="id" className="text-xs" data-testid="message-id">
        {m.id}
      </code>,
    ],
    ["to", t("success.to"), m.to],
    ["status", t("success.status"), <SmsStatusBadge key="s" status={m.status} />],
    ["price", t("success.price"), formatMoney(m.price, m.currency, lng)],
    ["createdAt", t("success.createdAt"), formatDate(m.created_at, lng, true)],
  ];
  return (
    <div className="space-y-6">
      <PageHeader description={t("success.description")} />
      <Card className="max-w-2xl" data-testid="send-outcome">
        <CardHeader>
          <h2 className="flex items-center gap-2 text-lg font-semibold">
            <CheckCircle2 className="size-5 text-green-600" />
            {t("success.title")}
          </h2>
        </CardHeader>
        <CardContent className="space-y-5">
          <dl className="grid grid-cols-[auto_1fr] gap-x-6 gap-y-2 text-sm">
            {rows.map(([key, label, value]) => (
              <div key={key} className="contents" data-row={key}>
                <dt className="text-muted-foreground">{label}</dt>
                <dd className="font-medium tabular-nums">{value}</dd>
              </div>
            ))}
          </dl>
          <div className="flex flex-wrap gap-2">
            <Button asChild variant="outline">
              <Link to={`${base}/history/${m.id}`}>{t("success.viewMessage")}</Link>
            </Button>
            <Button asChild variant="outline">
              <Link to={`${base}/history`}>{t("success.history")}</Link>
            </Button>
            <Button asChild>
              <Link to={`${base}/send`}>{t("success.sendAnother")}</Link>
            </Button>
          </div>
        </CardContent>
      </Card>
    </div>
  );
}
