/** /mail/history/{id}: one e-mail with its events, counts and rendered content (components/email/message-screen.tsx). */
import type { LoaderFunctionArgs } from "@remix-run/node";
import { EmailMessageScreen } from "~/components/email/message-screen";
import { emailMessageLoader } from "~/lib/email-history.server";

export const handle = { crumb: "emailReports:crumbs.message" };
export const loader = ({ request, params }: LoaderFunctionArgs) => emailMessageLoader(request, params.id ?? "");

export default EmailMessageScreen;
