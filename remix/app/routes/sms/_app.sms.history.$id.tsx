/** /sms/history/{id}: one SMS of the account (another account's is not found). */
import type { LoaderFunctionArgs } from "@remix-run/node";
import { MessageDetail } from "~/components/sms-reports/message-detail";
import { detailLoader } from "~/lib/sms-reports.server";

export const handle = { crumb: "smsReports:crumbs.message" };
export const loader = ({ request, params }: LoaderFunctionArgs) => detailLoader(request, params.id ?? "");

export default function SmsMessage() {
  return <MessageDetail />;
}
