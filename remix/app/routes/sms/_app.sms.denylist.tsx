/** /sms/denylist: the account's deny list (numbers it refuses to send to on every channel; sends to them end `rejected`, not charged) — components/optouts/deny-list-screen.tsx. /sms/blacklist is the same list (the spec's API name) and redirects here (ADR 011). */
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { denyListAction, denyListLoader } from "~/components/optouts/deny-list.server";
import { DenyListScreen } from "~/components/optouts/deny-list-screen";

export const handle = { crumb: "smpp:denylist.title" };
export const loader = ({ request }: LoaderFunctionArgs) => denyListLoader(request, "/sms/denylist");
export const action = ({ request }: ActionFunctionArgs) => denyListAction(request, "/sms/denylist");

export default DenyListScreen;
