/**
 * /widget, the webchat widget's home: what a customer needs to put the widget on their site and
 * know it works — the snippet and key (./settings getWidget), what a visitor's widget receives
 * right now (./widget-public widgetPublicConfig: on or off, open or closed, an agent connected or
 * not, the departments a visitor may pick), who of the account is connected (./presence), today's
 * opening hours or holiday (./hours daySchedule) and the last conversations that came through it.
 * Read-only; the settings themselves are /widget/config's.
 */
import type { SignedInCtx } from "../lib/context";
import { rows } from "../lib/sql";
import { iso } from "./access";
import { daySchedule, type DaySchedule } from "./hours";
import { onlineAgents } from "./presence";
import { getWidget, type WidgetView } from "./settings";
import { type WidgetPublicConfig, widgetPublicConfig } from "./widget-public";

export type WidgetOverview = {
  widget: WidgetView;
  /** Exactly what the embedded widget's GET /api/widget/{key}/config answers now. */
  visitor: WidgetPublicConfig;
  /** The account's people with a live connection now (any realtime process), by name. */
  online: Array<{ id: string; name: string }>;
  today: DaySchedule;
  /** Webchat conversations: the newest one's start, and how many began in the last 7 days. */
  conversations: { last_at: string | null; last_7_days: number };
};

export async function widgetOverview(ctx: SignedInCtx): Promise<WidgetOverview> {
  const widget = await getWidget(ctx);
  const { accountId } = ctx.actor;
  const [visitor, ids, today, [conversations]] = await Promise.all([
    widgetPublicConfig(widget.widget_key),
    onlineAgents(accountId),
    daySchedule(accountId, new Date()),
    rows<{ last_at: Date | null; last_7_days: number }>(
      `SELECT max(created_at) AS last_at, count(*) FILTER (WHERE created_at > now() - interval '7 days')::int AS last_7_days
         FROM live_rooms WHERE account_id = $1 AND channel = 'webchat'`,
      [accountId],
    ),
  ]);
  // The online set may still name someone who left the account: only its members, with their names.
  const online = ids.length
    ? await rows<{ id: string; name: string }>(
        `SELECT u.id, trim(u.first_name || ' ' || u.last_name) AS name FROM memberships m JOIN users u ON u.id = m.user_id
          WHERE m.account_id = $1 AND m.user_id = ANY($2::uuid[]) ORDER BY lower(trim(u.first_name || ' ' || u.last_name)), u.id`,
        [accountId, ids],
      )
    : [];
  return { widget, visitor, online, today, conversations: { last_at: iso(conversations.last_at), last_7_days: conversations.last_7_days } };
}
