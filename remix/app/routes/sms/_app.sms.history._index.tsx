/** /sms/history: the account's SMS by day range and filters; Export queues a CSV of the same filters. */
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { HistoryScreen } from "~/components/sms-reports/history-screen";
import { historyExportAction, historyLoader } from "~/lib/sms-reports.server";

export const loader = ({ request }: LoaderFunctionArgs) => historyLoader(request);
export const action = ({ request }: ActionFunctionArgs) => historyExportAction(request, "/sms/exports");

export default function SmsHistory() {
  return <HistoryScreen base="/sms/history" exportsPath="/sms/exports" />;
}
