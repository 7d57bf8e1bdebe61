/**
 * /sms/send/success?campaign=<id> | ?message=<id>: what one accepted send holds — messages,
 * blocked ones (opt-out / deny list) with their reason, segments charged, total cost in the
 * account's currency, the schedule — with links to the message or campaign and the history.
 */
import type { LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Link, useLoaderData, useRouteLoaderData } from "@remix-run/react";
import { Clock } from "lucide-react";
import { useTranslation } from "~/lib/react-i18n";
import { sendOutcome } from "~api/sms/send-view";
import { SendOutcomeCard } from "~/components/messages/send-outcome";
import { PageHeader } from "~/components/shell/page-header";
import { Button } from "~/components/ui/button";
import { orHttpError, requireRoute } from "~/lib/auth.server";
import { formatDate, formatMoney } from "~/lib/format";
import { intlLocale, type Lng } from "~/lib/i18n";
import type { RootData } from "~/root";

export const handle = { crumb: "sms:success.title" };

export async function loader({ request }: LoaderFunctionArgs) {
  const ctx = await requireRoute(request);
  const url = new URL(request.url);
  const outcome = await orHttpError(sendOutcome(ctx, { campaign: url.searchParams.get("campaign"), message: url.searchParams.get("message") }));
  return json({ outcome });
}

export default function SmsSendSuccess() {
  const { outcome: o } = useLoaderData<typeof loader>();
  const lng = (useRouteLoaderData<RootData>("root")?.lng ?? "pt-BR") as Lng;
  const { t } = useTranslation(["sms", "common"]);
  const n = (v: number) => new Intl.NumberFormat(intlLocale[lng]).format(v);
  const blocked = o.optout + o.rejected;
  const sendable = o.messages - blocked;
  const rows: Array<[string, string, string]> = [
    ["messages", t("success.messages"), n(o.messages)],
    ["sendable", t("success.sendable"), n(sendable)],
    ["blocked", t("success.blocked"), n(blocked)],
    ["segments", t("success.segments"), n(o.segments)],
    ["total", t("success.total"), formatMoney(o.total_price, o.currency, lng)],
  ];
  if (o.scheduled_at) rows.push(["scheduled", t("success.scheduledAt"), formatDate(o.scheduled_at, lng, true)]);
  if (o.campaign) rows.push(["campaign", t("success.campaign"), o.campaign.name]);
  return (
    <div className="space-y-6">
      <PageHeader description={t("success.description")} />
      <SendOutcomeCard
        title={o.scheduled_at ? t("success.scheduledTitle") : t("success.title")}
        icon={o.scheduled_at ? <Clock className="size-5 text-primary" /> : undefined}
        rows={rows}
      >
        {blocked > 0 || o.invalid > 0 ? (
          <ul className="space-y-1 rounded-md border bg-muted/40 p-3 text-sm" data-testid="blocked-reasons">
            {o.optout > 0 ? (
              <li>
                {n(o.optout)} — {t("success.optout")}
              </li>
            ) : null}
            {o.rejected > 0 ? (
              <li>
                {n(o.rejected)} — {t("success.rejected")}
              </li>
            ) : null}
            {o.invalid > 0 ? (
              <li>
                {n(o.invalid)} — {t("success.invalid")}
                {o.campaign ? (
                  <>
                    {" "}
                    <a
                      className="font-medium text-primary underline-offset-4 hover:underline"
                      href={`/sms/campaigns/${o.campaign.id}/invalid-rows`}
                      download
                      data-testid="invalid-rows-link"
                    >
                      {t("invalidRows.download")}
                    </a>
                  </>
                ) : null}
              </li>
            ) : null}
          </ul>
        ) : null}
        <div>
          <h3 className="mb-2 text-sm font-medium">{t("success.status")}</h3>
          <ul className="flex flex-wrap gap-2 text-sm">
            {Object.entries(o.by_status).map(([status, count]) => (
              <li key={status} className="rounded-full border px-2.5 py-0.5" data-status={status}>
                {t(`status.${status}`, { defaultValue: status })}: {n(count)}
              </li>
            ))}
          </ul>
        </div>
        <div className="flex flex-wrap gap-2">
          {o.message_id ? (
            <Button asChild variant="outline">
              <Link to={`/sms/history/${o.message_id}`}>{t("success.viewMessage")}</Link>
            </Button>
          ) : null}
          {o.campaign ? (
            <Button asChild variant="outline">
              <Link to={`/sms/campaigns/${o.campaign.id}`}>{t("success.viewCampaign")}</Link>
            </Button>
          ) : null}
          <Button asChild variant="outline">
            <Link to="/sms/history">{t("success.history")}</Link>
          </Button>
          <Button asChild>
            <Link to="/sms/send">{t("success.sendAnother")}</Link>
          </Button>
        </div>
      </SendOutcomeCard>
    </div>
  );
}
