/**
 * /whatsapp/success and /whatsapp/jv/success ?message=<id>: the WhatsApp message a send accepted — its id, recipient, status
 * now, the price debited (the account's currency) — with links to its history and another send.
 * Without a message of the account it is not found.
 */
import { Link, useLoaderData, useRouteLoaderData } from "@remix-run/react";
import { useTranslation } from "~/lib/react-i18n";
import { SendOutcomeCard } from "~/components/messages/send-outcome";
import { PageHeader } from "~/components/shell/page-header";
import { SmsStatusBadge } from "~/components/sms-reports/status-badge";
import { Button } from "~/components/ui/button";
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
      <SendOutcomeCard title={t("success.title")} rows={rows}>
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
      </SendOutcomeCard>
    </div>
  );
}
