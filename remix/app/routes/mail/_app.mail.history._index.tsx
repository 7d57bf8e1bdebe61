/**
 * /mail/history: the account's e-mail messages of a range of São Paulo days (components/email/history-screen.tsx);
 * the Export button posts the filters shown (CSRF, no JavaScript needed) and goes to /mail/exports.
 */
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { EmailHistoryScreen } from "~/components/email/history-screen";
import { emailHistoryLoader } from "~/lib/email-history.server";
import { historyExportAction } from "~/lib/sms-reports.server";

export const loader = ({ request }: LoaderFunctionArgs) => emailHistoryLoader(request);
/** The Export button: an export of the e-mail history with the filters shown (the SMS history's export job, channel email), then /mail/exports. */
export const action = ({ request }: ActionFunctionArgs) => historyExportAction(request, "/mail/exports", "email");

export default EmailHistoryScreen;
