/**
 * Agent seats and numbers over the API (issue 18, ADR 047): GET /api/live/billing (the chat
 * agents and what they cost) and GET /api/numbers/active (the short codes and WhatsApp numbers and
 * what they cost), JWT. Thin: the use-cases (./screens) check the screens' rules and scope by account.
 */
import { Elysia } from "elysia";
import { authenticated } from "../http/auth";
import { successResponse } from "../http/openapi";
import { ActiveNumbersAnswer, LiveBillingAnswer } from "./responses";
import { activeNumbers, liveBilling } from "./screens";

const bearer = [{ bearer: [] }];

export const seatRoutes = new Elysia({ tags: ["billing"], detail: { security: bearer } })
  .use(authenticated)
  .get("/live/billing", ({ ctx }) => liveBilling(ctx), {
    detail: {
      responses: successResponse(LiveBillingAnswer, "The agents and what they cost"),
      summary:
        "The account's chat agents and what they cost (spec section 6: adding an agent is charged): the price per seat a month, the month's total, what the ledger charged for agents this São Paulo month, the next renewal. Needs the omni plan",
    },
  })
  .get("/numbers/active", ({ ctx }) => activeNumbers(ctx), {
    detail: {
      responses: successResponse(ActiveNumbersAnswer, "The numbers and what they cost"),
      summary: "The account's short codes and WhatsApp numbers with their status and monthly price, and the monthly total. Admin only (spec: /numbers/active admin)",
    },
  });
