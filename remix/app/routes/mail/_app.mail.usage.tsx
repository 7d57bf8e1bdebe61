/** /mail/usage: the account's e-mails and their cost per São Paulo day (default this month so far): the SMS usage screen without segments. */
import type { LoaderFunctionArgs } from "@remix-run/node";
import { useTranslation } from "~/lib/react-i18n";
import { emailUsage } from "~api/email/figures";
import { UsageScreen } from "~/components/sms-reports/usage-screen";
import { usageLoader } from "~/lib/sms-reports.server";

export const handle = { crumb: "emailReports:crumbs.usage" };
export const loader = ({ request }: LoaderFunctionArgs) => usageLoader(request, emailUsage);

export default function MailUsage() {
  const { t } = useTranslation("emailReports");
  return <UsageScreen action="/mail/usage" segments={false} description={t("usage.description")} />;
}
