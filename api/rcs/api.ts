/**
 * Every RCS route group as one plugin of the API (api/app.ts), like the e-mail's: sends, history,
 * agents with templates and keywords, reports (the account's and staff's), campaigns, and RBM's
 * signed callbacks. One `.use` in the app instead of six keeps the app's type within TypeScript's
 * depth (TS2589).
 */
import { Elysia } from "elysia";
import { rcsAgentRoutes } from "./agent-routes";
import { rcsCampaignRoutes } from "./campaign-routes";
import { rcsHistoryRoutes } from "./history-routes";
import { rcsReportApi } from "./report-routes";
import { rcsSendRoutes } from "./routes";
import { rbmWebhookRoutes } from "./webhook-routes";

export const rcsApi = new Elysia({ name: "rcs-api" }).use(rcsSendRoutes).use(rcsHistoryRoutes).use(rcsAgentRoutes).use(rcsReportApi).use(rcsCampaignRoutes).use(rbmWebhookRoutes);
