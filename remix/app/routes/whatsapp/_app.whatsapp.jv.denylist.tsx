/** /whatsapp/jv/denylist: the same deny list under the older integration's screens (one list for every channel and both WhatsApp integrations). */
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { denyListAction, denyListLoader } from "~/components/optouts/deny-list.server";
import { DenyListScreen } from "~/components/optouts/deny-list-screen";

export const handle = { crumb: "smpp:denylist.title" };
export const loader = ({ request }: LoaderFunctionArgs) => denyListLoader(request, "/whatsapp/jv/denylist");
export const action = ({ request }: ActionFunctionArgs) => denyListAction(request, "/whatsapp/jv/denylist");

export default DenyListScreen;
