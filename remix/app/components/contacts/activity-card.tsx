import { MessagesSquare } from "lucide-react";
import { useTranslation } from "~/lib/react-i18n";
import { Card, CardContent, CardDescription, CardHeader } from "~/components/ui/card";

type Activity = {
  conversations: Array<{ id: string; channel: string; status: string; created_at: string }>;
  messages: Array<{ id: string; channel: string; direction: string; status: string; created_at: string }>;
  opt_outs: Array<{ channel: string; created_at: string }>;
};

/** The person's conversations, messages and opt-outs across channels, as the use-case reports them. */
export function ActivityCard({ activity }: { activity: Activity }) {
  const { t } = useTranslation("contacts");
  const empty = !activity.conversations.length && !activity.messages.length;
  return (
    <Card>
      <CardHeader>
        <h2 className="leading-none font-semibold">{t("activity.title")}</h2>
        <CardDescription>{t("activity.description")}</CardDescription>
      </CardHeader>
      <CardContent className="space-y-4 text-sm">
        {empty ? (
          <div className="flex flex-col items-center gap-2 rounded-md border border-dashed p-4 text-center text-muted-foreground" data-empty="activity">
            <MessagesSquare className="size-6" aria-hidden="true" />
            <p>{t("activity.empty")}</p>
          </div>
        ) : (
          <ul className="space-y-1">
            {activity.conversations.map((c) => (
              <li key={`c-${c.id}`}>{t("activity.conversation", { channel: c.channel, status: c.status })}</li>
            ))}
            {activity.messages.map((m) => (
              <li key={`m-${m.id}`}>{t("activity.message", { channel: m.channel, status: m.status })}</li>
            ))}
          </ul>
        )}
        <div>
          <h3 className="mb-1 font-medium">{t("activity.optOuts")}</h3>
          {activity.opt_outs.length ? (
            <ul className="space-y-1">
              {activity.opt_outs.map((o) => (
                <li key={`${o.channel}-${o.created_at}`}>{o.channel}</li>
              ))}
            </ul>
          ) : (
            <p className="text-muted-foreground">{t("activity.noOptOuts")}</p>
          )}
        </div>
      </CardContent>
    </Card>
  );
}
