/** /whatsapp/exports: the account's WhatsApp history exports (the SMS exports screen, channel whatsapp), their state and the CSV download. */
import type { LoaderFunctionArgs } from "@remix-run/node";
import { ExportsScreen } from "~/components/sms-reports/exports-screen";
import { exportsLoader } from "~/lib/sms-reports.server";

export const handle = { crumb: "whatsapp:crumbs.exports" };
export const loader = ({ request }: LoaderFunctionArgs) => exportsLoader(request, "whatsapp");

export default function WhatsappExports() {
  return <ExportsScreen historyPath="/whatsapp/history" channel="whatsapp" />;
}
