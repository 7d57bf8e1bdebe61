/** /sms/reports/history: the history screen under the reports (same filters, same export). */
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { HistoryScreen } from "~/components/sms-reports/history-screen";
import { historyExportAction, historyLoader } from "~/lib/sms-reports.server";

export const loader = ({ request }: LoaderFunctionArgs) => historyLoader(request);
export const action = ({ request }: ActionFunctionArgs) => historyExportAction(request, "/sms/reports/exports");

export default function SmsReportsHistory() {
  return <HistoryScreen base="/sms/reports/history" exportsPath="/sms/reports/exports" />;
}
