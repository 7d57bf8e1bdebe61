/** /rcs/denylist: the account's deny list as RCS sees it (one list for every channel: a send to a number on it is refused, not charged) — the same screen as /sms/denylist and /whatsapp/denylist. */
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { denyListAction, denyListLoader } from "~/components/optouts/deny-list.server";
import { DenyListScreen } from "~/components/optouts/deny-list-screen";

export const handle = { crumb: "smpp:denylist.title" };
export const loader = ({ request }: LoaderFunctionArgs) => denyListLoader(request, "/rcs/denylist");
export const action = ({ request }: ActionFunctionArgs) => denyListAction(request, "/rcs/denylist");

export default DenyListScreen;
