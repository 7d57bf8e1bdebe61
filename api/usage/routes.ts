/**
 * Usage over the API (issue 18): GET /api/usage, what the account used and what it cost per
 * channel, route and São Paulo day (JWT). Thin: the use-case (./usage) validates the period,
 * checks the screen's permission (/usage) and scopes by the actor's account.
 */
import { Elysia, t } from "elysia";
import { authenticated } from "../http/auth";
import { errorResponses, successResponse } from "../http/openapi";
import { UsageAnswer } from "./responses";
import { getUsage, USAGE_MAX_DAYS } from "./usage";

const bearer = [{ bearer: [] }];
const day = (description: string) => t.Optional(t.String({ description }));

export const usageRoutes = new Elysia({ tags: ["billing"], detail: { security: bearer } }).use(authenticated).get("/usage", ({ ctx, query }) => getUsage(ctx, query), {
  query: t.Object({
    period: t.Optional(t.String({ description: "7d (default) or 30d: the last 7 or 30 São Paulo days, today included. Ignored when from or to is given" })),
    from: day(`First São Paulo day (YYYY-MM-DD), included; with to, at most ${USAGE_MAX_DAYS} days`),
    to: day("Last São Paulo day (YYYY-MM-DD), included; not after today"),
  }),
  detail: {
    responses: { ...successResponse(UsageAnswer, "The period's usage"), ...errorResponses(422) },
    summary:
      "What the account used and what it cost: outbound messages per channel and route (the product) and per São Paulo day, in quantity and money (minor units). " +
      "Money is what the ledger charged: a message refunded (failed before the provider took it) counts in quantity and `refunded`, not in `amount`. " +
      `422 VALIDATION naming from or to: a bad date, from after to, more than ${USAGE_MAX_DAYS} days, to after today`,
  },
});
