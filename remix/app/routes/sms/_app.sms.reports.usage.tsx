/** /sms/reports/usage: the usage report (as /sms/usage). */
import type { LoaderFunctionArgs } from "@remix-run/node";
import { UsageScreen } from "~/components/sms-reports/usage-screen";
import { usageLoader } from "~/lib/sms-reports.server";

export const handle = { crumb: "smsReports:crumbs.usage" };
export const loader = ({ request }: LoaderFunctionArgs) => usageLoader(request);

export default function SmsReportsUsage() {
  return <UsageScreen action="/sms/reports/usage" />;
}
