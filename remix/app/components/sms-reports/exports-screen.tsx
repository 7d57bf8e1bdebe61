/**
 * The account's SMS or WhatsApp history exports (/sms/exports, /sms/reports/exports, /whatsapp/exports, /mail/exports): the shared exports
 * table (components/exports) with the SMS filter described, and a way back to the history.
 */
import { useLoaderData } from "@remix-run/react";
import { useTranslation } from "~/lib/react-i18n";
import { dmy, ExportsTable } from "~/components/exports/exports-table";
import { PageHeader } from "~/components/shell/page-header";
import { Button } from "~/components/ui/button";
import type { exportsLoader } from "~/lib/sms-reports.server";
import { CHANNEL_AREA, type ReportChannel } from "~api/sms/report-constants";

export function ExportsScreen({ historyPath, channel = "sms" }: { historyPath: string; channel?: ReportChannel }) {
  const { exports } = useLoaderData<typeof exportsLoader>();
  const { t } = useTranslation("smsReports");
  const describe = (f: (typeof exports)[number]["filter"]) => {
    const parts = [f.sent_at.from === f.sent_at.to ? dmy(f.sent_at.from) : `${dmy(f.sent_at.from)} – ${dmy(f.sent_at.to)}`];
    if (f.status) parts.push(t(`status.${f.status}`));
    if (f.from) parts.push(t("exports.filterFrom", { v: f.from }));
    if (f.to) parts.push(t("exports.filterTo", { v: f.to }));
    if (f.id) parts.push(t("exports.filterId", { v: f.id.slice(0, 8) }));
    return parts.join(" · ");
  };
  return (
    <div className="space-y-6">
      <PageHeader
        description={t("exports.description")}
        actions={
          <Button asChild variant="outline">
            <a href={historyPath}>{t("exports.toHistory")}</a>
          </Button>
        }
      />
      <ExportsTable exports={exports} ns="smsReports" describe={describe} fileHref={(id) => `${CHANNEL_AREA[channel]}/exports/${id}/file`} />
    </div>
  );
}
