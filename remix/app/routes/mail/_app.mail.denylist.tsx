/** /mail/denylist: the deny list's e-mail addresses — list, search, add, remove (components/email/address-list-screen.tsx). */
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { EmailAddressListScreen } from "~/components/email/address-list-screen";
import { emailListAction, emailListLoader } from "~/lib/email-lists.server";

export const handle = { crumb: "emailReports:crumbs.denylist" };
export const loader = ({ request }: LoaderFunctionArgs) => emailListLoader(request, "denylist");
export const action = ({ request }: ActionFunctionArgs) => emailListAction(request, "denylist");

export default EmailAddressListScreen;
