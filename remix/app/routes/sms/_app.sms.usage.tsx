/** /sms/usage: messages, segments and cost per day (default this month). */
import type { LoaderFunctionArgs } from "@remix-run/node";
import { UsageScreen } from "~/components/sms-reports/usage-screen";
import { usageLoader } from "~/lib/sms-reports.server";

export const handle = { crumb: "smsReports:crumbs.usage" };
export const loader = ({ request }: LoaderFunctionArgs) => usageLoader(request);

export default function SmsUsage() {
  return <UsageScreen action="/sms/usage" />;
}
