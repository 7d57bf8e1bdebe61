/**
 * Every e-mail route group as one plugin of the API (api/app.ts): sends and domains, tracking and
 * its redirects, campaigns, reports and exports, the opt-out and deny lists, and staff's reports.
 * One `.use` in the app instead of seven keeps the app's type within TypeScript's depth.
 */
import { Elysia } from "elysia";
import { emailCampaignRoutes } from "./campaign-routes";
import { emailListRoutes } from "./list-routes";
import { emailAdminReportRoutes, emailReportRoutes } from "./report-routes";
import { emailRoutes } from "./routes";
import { emailTrackingRoutes, emailTrackRoutes } from "./tracking-routes";

export const emailApi = new Elysia({ name: "email-api" })
  .use(emailRoutes)
  .use(emailTrackingRoutes)
  .use(emailTrackRoutes)
  .use(emailCampaignRoutes)
  .use(emailReportRoutes)
  .use(emailListRoutes)
  .use(emailAdminReportRoutes);
