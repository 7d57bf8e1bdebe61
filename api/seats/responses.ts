/**
 * The success answers of GET /api/live/billing and GET /api/numbers/active (routes.ts), as TypeBox
 * schemas for the OpenAPI document; in tests every answer is checked against them.
 */
import { t } from "elysia";

const DateTime = (description: string) => t.String({ format: "date-time", description });
const money = (description: string) => t.Integer({ minimum: 0, description: `${description}, in minor units of the currency (centavos)` });

export const LiveBillingAnswer = t.Object({
  currency: t.String(),
  price_per_agent: money("What one agent seat costs a month"),
  own_price: t.Boolean({ description: "The account has its own price per seat (else the default, R$ 49,90)" }),
  agents: t.Array(
    t.Object({
      membership_id: t.String(),
      user_id: t.String(),
      name: t.String(),
      email: t.String(),
      role: t.String(),
      agent_since: t.Union([DateTime("When the person last became a chat agent"), t.Null()]),
      charged_until: t.Union([DateTime("The São Paulo month start up to which the seat is paid"), t.Null()]),
    }),
    { description: "The account's chat agents (memberships with is_agent), by name" },
  ),
  monthly_total: money("The agents' seats a month: price_per_agent × agents"),
  month_start: DateTime("The current São Paulo month's first instant"),
  charged_this_month: t.Integer({ description: "What the ledger charged for agent seats this São Paulo month (pro rata additions and renewals), minor units" }),
  next_renewal: DateTime("When every seat is paid for the next month (the next São Paulo month start)"),
});

const Number_ = {
  id: t.String(),
  monthly_price: money("What it costs a month"),
  since: DateTime("When it was added"),
};
export const ActiveNumbersAnswer = t.Object({
  currency: t.String(),
  short_codes: t.Array(t.Object({ ...Number_, number: t.String(), nickname: t.String(), status: t.String({ description: "active or inactive" }) })),
  whatsapp_numbers: t.Array(
    t.Object({
      ...Number_,
      number: t.String({ description: "As shown by Meta" }),
      name: t.String({ description: "The verified name" }),
      status: t.String({ description: "Meta's quality rating" }),
    }),
  ),
  monthly_total: money("The active short codes and the WhatsApp numbers a month"),
});
