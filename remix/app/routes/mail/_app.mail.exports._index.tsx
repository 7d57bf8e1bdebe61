/** /mail/exports: the account's e-mail history exports (the SMS exports screen, channel email), their state and the CSV download. */
import type { LoaderFunctionArgs } from "@remix-run/node";
import { ExportsScreen } from "~/components/sms-reports/exports-screen";
import { exportsLoader } from "~/lib/sms-reports.server";

export const handle = { crumb: "emailReports:crumbs.exports" };
export const loader = ({ request }: LoaderFunctionArgs) => exportsLoader(request, "email");

export default function MailExports() {
  return <ExportsScreen historyPath="/mail/history" channel="email" />;
}
