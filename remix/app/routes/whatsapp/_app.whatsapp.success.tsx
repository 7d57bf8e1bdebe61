/** /whatsapp/success?message=<id>: the WhatsApp message a send accepted (components/whatsapp/success-screen.tsx); without a message of the account it is not found. */
import type { LoaderFunctionArgs } from "@remix-run/node";
import { WhatsappSuccessScreen } from "~/components/whatsapp/success-screen";
import { WHATSAPP, whatsappSuccessLoader } from "~/lib/whatsapp.server";

export const handle = { crumb: "whatsapp:crumbs.success" };
export const loader = ({ request }: LoaderFunctionArgs) => whatsappSuccessLoader(request, WHATSAPP);

export default WhatsappSuccessScreen;
