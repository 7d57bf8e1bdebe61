/** /mail/exports/{id}/file: an e-mail export's CSV as a download (another account's or another channel's export: 404; not finished: 409). */
import type { LoaderFunctionArgs } from "@remix-run/node";
import { exportFileLoader } from "~/lib/sms-reports.server";

export const loader = ({ request, params }: LoaderFunctionArgs) => exportFileLoader(request, params.id ?? "", "email");
