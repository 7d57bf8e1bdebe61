/** /sms/exports: the account's history exports, their state and the CSV download. */
import type { LoaderFunctionArgs } from "@remix-run/node";
import { ExportsScreen } from "~/components/sms-reports/exports-screen";
import { exportsLoader } from "~/lib/sms-reports.server";

export const handle = { crumb: "smsReports:crumbs.exports" };
export const loader = ({ request }: LoaderFunctionArgs) => exportsLoader(request);

export default function SmsExports() {
  return <ExportsScreen historyPath="/sms/history" />;
}
