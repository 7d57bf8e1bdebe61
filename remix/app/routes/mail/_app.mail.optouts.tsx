/** /mail/optouts: the account's e-mail opt-outs — list, search, add, remove (components/email/address-list-screen.tsx). */
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { EmailAddressListScreen } from "~/components/email/address-list-screen";
import { emailListAction, emailListLoader } from "~/lib/email-lists.server";

export const handle = { crumb: "emailReports:crumbs.optouts" };
export const loader = ({ request }: LoaderFunctionArgs) => emailListLoader(request, "optouts");
export const action = ({ request }: ActionFunctionArgs) => emailListAction(request, "optouts");

export default EmailAddressListScreen;
