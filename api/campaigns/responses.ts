/**
 * The success answers of the SMS campaign routes (./control), as TypeBox schemas for the OpenAPI
 * document (api/http/openapi.ts successResponse).
 */
import { Type } from "@sinclair/typebox";
import { t } from "elysia";

const int = Type.Integer;
const dateTime = t.String({ format: "date-time" });
const nullableDate = t.Union([dateTime, t.Null()]);

const CampaignStatus = t.Union(
  ["scheduled", "preparing", "running", "paused", "canceled", "completed", "failed"].map((s) => t.Literal(s)),
  { description: "scheduled, preparing, running, paused, canceled, completed or failed" },
);

const campaignFields = {
  id: t.String({ format: "uuid" }),
  channel: t.String({ description: "sms" }),
  name: t.String(),
  status: CampaignStatus,
  from: t.String({ description: "The sender of its messages (empty: the route's default)" }),
  sender: t.String({ deprecated: true, description: "alias of from" }),
  body: t.String(),
  route: t.Union([t.String(), t.Null()]),
  total: int({ description: "Recipients planned" }),
  counts: t.Record(t.String(), int(), { description: "Messages per status (only statuses that occur)" }),
  done: int({ description: "Messages past sending (sent, delivered, failed…)" }),
  progress: int({ description: "0..100: done / max(total, messages)" }),
  scheduled_at: nullableDate,
  started_at: nullableDate,
  completed_at: nullableDate,
  canceled_at: nullableDate,
  created_at: dateTime,
  updated_at: dateTime,
};

export const CampaignPage = t.Object({
  data: t.Array(t.Object(campaignFields)),
  next_cursor: t.Union([t.String(), t.Null()], { description: "Send it back as `cursor` (same status) for the next page; null on the last page" }),
  page: int({ deprecated: true, description: "The page's number (OFFSET paging; prefer cursor)" }),
  per_page: int({ description: "The page size (limit)" }),
  total: int({ description: "Campaigns matching the filter" }),
  last_page: int({ deprecated: true, description: "Prefer next_cursor" }),
});

const CampaignDetail = t.Object({
  ...campaignFields,
  cost: int({ description: "What its messages cost: centavos (minor units of the account's currency)" }),
  currency: t.String(),
  invalid_rows: int({ description: "Rows of a CSV-file send without a valid number (GET /sms/campaigns/{id}/invalid_rows lists them)" }),
});

export const CampaignOne = t.Object({ data: CampaignDetail });

export const CampaignControlled = t.Object({
  data: CampaignDetail,
  meta: t.Object({
    changed: t.Boolean({ description: "false: it already had that status" }),
    refunded: int({ description: "Centavos returned to the balance (cancel)" }),
    canceled: int({ description: "Unsent messages failed as canceled (cancel)" }),
    republished: int({ description: "Queued messages handed to the dispatcher again (resume)" }),
  }),
});

export const CampaignDeleted = t.Object({ ok: t.Literal(true) });

const ClickLink = t.Object({
  url: t.String({ description: "The address the link leads to" }),
  short_url: t.Union([t.String(), t.Null()], { description: "The link's own short URL (each recipient got a code of it); null for e-mail (tracked per message)" }),
  clicks: t.Integer(),
  clicked: t.Integer({ description: "Recipients who clicked it" }),
});
const ClickPerson = t.Object({
  recipient: t.String({ description: "The number (or address) the message went to" }),
  name: t.Union([t.String(), t.Null()], { description: "The account's contact with that number, if any" }),
  clicks: t.Integer(),
  first_at: dateTime,
  last_at: dateTime,
});
export const CampaignClicksOne = t.Object({
  data: t.Union([
    t.Object({
      recipients: t.Integer({ description: "Recipients who got a code" }),
      clicked: t.Integer({ description: "Recipients who clicked at least once" }),
      clicks: t.Integer(),
      links: t.Array(ClickLink),
      people: t.Array(ClickPerson, { description: "The last 100 recipients who clicked, latest first" }),
    }),
    t.Null(),
  ]),
});
