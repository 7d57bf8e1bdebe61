/** /whatsapp/exports/{id}/file: a WhatsApp export's CSV as a download (another account's or an SMS export: 404; not finished: 409). */
import type { LoaderFunctionArgs } from "@remix-run/node";
import { exportFileLoader } from "~/lib/sms-reports.server";

export const loader = ({ request, params }: LoaderFunctionArgs) => exportFileLoader(request, params.id ?? "", "whatsapp");
