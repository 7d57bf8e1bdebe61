/** /sms/reports/exports: the exports list under the reports. */
import type { LoaderFunctionArgs } from "@remix-run/node";
import { ExportsScreen } from "~/components/sms-reports/exports-screen";
import { exportsLoader } from "~/lib/sms-reports.server";

export const handle = { crumb: "smsReports:crumbs.exports" };
export const loader = ({ request }: LoaderFunctionArgs) => exportsLoader(request);

export default function SmsReportsExports() {
  return <ExportsScreen historyPath="/sms/reports/history" />;
}
