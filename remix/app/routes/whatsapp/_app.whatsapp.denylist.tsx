/** /whatsapp/denylist: the account's deny list as WhatsApp sees it (one list for every channel: a WhatsApp send to a number on it is `rejected`, not charged) — the same screen as /sms/denylist. */
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { denyListAction, denyListLoader } from "~/components/optouts/deny-list.server";
import { DenyListScreen } from "~/components/optouts/deny-list-screen";

export const handle = { crumb: "smpp:denylist.title" };
export const loader = ({ request }: LoaderFunctionArgs) => denyListLoader(request, "/whatsapp/denylist");
export const action = ({ request }: ActionFunctionArgs) => denyListAction(request, "/whatsapp/denylist");

export default DenyListScreen;
