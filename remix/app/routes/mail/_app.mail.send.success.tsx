/**
 * /mail/send/success?message=<id>&count=<n>: what a send accepted — how many messages, the first
 * one's recipient, status now and price, its events so far — with a link to send another. A
 * message that is not the account's is not found.
 */
import type { LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Link, useLoaderData, useRouteLoaderData } from "@remix-run/react";
import { useTranslation } from "~/lib/react-i18n";
import { getEmailMessage } from "~api/email/history";
import { SendOutcomeCard } from "~/components/messages/send-outcome";
import { PageHeader } from "~/components/shell/page-header";
import { SmsStatusBadge } from "~/components/sms-reports/status-badge";
import { Button } from "~/components/ui/button";
import { orHttpError, requireRoute } from "~/lib/auth.server";
import { formatDate, formatMoney } from "~/lib/format";
import type { Lng } from "~/lib/i18n";
import type { RootData } from "~/root";

export const handle = { crumb: "email:crumbs.success" };

export async function loader({ request }: LoaderFunctionArgs) {
  const ctx = await requireRoute(request);
  const url = new URL(request.url);
  const { data } = await orHttpError(getEmailMessage(ctx, url.searchParams.get("message") ?? ""));
  const count = Math.max(1, Math.min(1000, Number(url.searchParams.get("count")) || 1));
  return json({ message: data, count }, { headers: { "Cache-Control": "private, no-store" } });
}

export default function MailSendSuccess() {
  const { message: m, count } = useLoaderData<typeof loader>();
  const lng = (useRouteLoaderData<RootData>("root")?.lng ?? "pt-BR") as Lng;
  const { t } = useTranslation("email");
  const rows: Array<[string, string, React.ReactNode]> = [
    ["count", t("success.count"), String(count)],
    ["to", t("success.to"), m.to],
    ["subject", t("success.subject"), m.subject],
    ["status", t("success.status"), <SmsStatusBadge key="s" status={m.status} />],
    ["price", t("success.price"), formatMoney(m.price, m.currency, lng)],
    ["createdAt", t("success.createdAt"), formatDate(m.created_at, lng, true)],
  ];
  return (
    <div className="space-y-6">
      <PageHeader description={t("success.description")} />
      <SendOutcomeCard title={t("success.title", { count })} rows={rows}>
        <Button asChild variant="outline">
          <Link to="/mail/send">{t("success.again")}</Link>
        </Button>
      </SendOutcomeCard>
    </div>
  );
}
