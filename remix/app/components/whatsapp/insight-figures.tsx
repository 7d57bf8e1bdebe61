/** The WhatsApp insights' cards (/whatsapp/insights and platform staff's /admin/whatsapp/reports/insights): counts, rates, cost (already formatted: one currency or several), received. */
import { useTranslation } from "~/lib/react-i18n";
import { Figures } from "~/components/sms-reports/figures";
import { formatCount, formatPercent } from "~/components/sms-reports/format";
import type { Lng } from "~/lib/i18n";

type Insights = {
  sent: number;
  delivered: number;
  read: number;
  failed: number;
  delivery_rate: number;
  read_rate: number;
  failure_rate: number;
  messages: number;
  received: number;
};

export function WhatsappInsightFigures({ i, cost, lng }: { i: Insights; cost: string; lng: Lng }) {
  const { t } = useTranslation("whatsapp");
  const n = (v: number) => formatCount(v, lng);
  return (
    <Figures
      items={[
        { key: "sent", label: t("reports.sent"), value: n(i.sent) },
        { key: "delivered", label: t("reports.delivered"), value: n(i.delivered) },
        { key: "read", label: t("reports.read"), value: n(i.read) },
        { key: "failed", label: t("reports.failed"), value: n(i.failed) },
        { key: "deliveryRate", label: t("reports.deliveryRate"), value: formatPercent(i.delivery_rate, lng) },
        { key: "readRate", label: t("reports.readRate"), value: formatPercent(i.read_rate, lng) },
        { key: "failureRate", label: t("reports.failureRate"), value: formatPercent(i.failure_rate, lng) },
        { key: "cost", label: t("reports.cost"), value: cost },
        { key: "messages", label: t("reports.messages"), value: n(i.messages) },
        { key: "received", label: t("reports.received"), value: n(i.received) },
      ]}
    />
  );
}
