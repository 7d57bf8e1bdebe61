/** The API process's application: one Elysia instance per domain under /api, errors mapped once. */
import { integrationsApi } from "./integrations/routes";
import { liveRoutes, widgetRoutes } from "./live/routes";
import { liveReportRoutes } from "./live/report-routes";
import { channelWebhookRoutes } from "./live/channel-webhooks";
import { liveChannelRoutes, liveFileRoutes, widgetUploadRoutes } from "./live/channel-routes";
import { auditRoutes } from "./audit/routes";
import { adminAuditRoutes } from "./admin-audit/routes";
import { Elysia, type AnyElysia } from "elysia";
import { accountRoutes } from "./accounts/routes";
import { contactRoutes } from "./contacts/routes";
import { authRoutes, twoFactorManageRoutes, twoFactorRoutes } from "./auth/routes";
import { departmentRoutes } from "./departments/routes";
import { flowRoutes } from "./flows/routes";
import { flowStreamRoutes } from "./flows/stream-routes";
import { errors } from "./http/errors";
import { compression } from "./http/compression";
import { bodyLimit } from "./http/body-limit";
import { DOCS_JSON_PATH, docsRoutes } from "./http/docs";
import { apiDocument, fileResponse } from "./http/openapi";
import { responseCheck } from "./http/response-check";
import { importRoutes } from "./imports/routes";
import { notificationRoutes } from "./notifications/routes";
import { planRoutes } from "./plans/routes";
import { meRoutes, userRoutes } from "./users/routes";
import { brandRoutes, whitelabelAdminRoutes } from "./whitelabel/routes";
import { smsReportRoutes } from "./sms/report-routes";
import { customerWebhookRoutes, providerWebhookRoutes } from "./webhooks/routes";
import { smsRoutes } from "./sms/routes";
import { campaignRoutes } from "./campaigns/routes";
import { optoutRoutes } from "./optouts/routes";
import { messageSettingsRoutes } from "./message-settings/routes";
import { shortCodeRoutes } from "./shortcodes/routes";
import { smppRoutes } from "./smpp/routes";
import { whatsappLegacyRoutes } from "./whatsapp/legacy-routes";
import { whatsappRequestRoutes } from "./whatsapp/requests";
import { whatsappAdminRoutes, whatsappRoutes, whatsappWebhookRoutes } from "./whatsapp/routes";
import { pipelinesApi } from "./pipelines/api";
import { rcsApi } from "./rcs/api";
import { lookupApi } from "./lookup/routes";
import { raRoutes } from "./ra/routes";
import { catalogApi } from "./catalog/routes";
import { shortenerApi } from "./shortener/routes";
import { emailApi } from "./email/api";
import { billingApi } from "./billing/routes";
import { usageRoutes } from "./usage/routes";
import { customerRoutes } from "./customers/routes";
import { supportApi } from "./support/routes";
import { adminPlanRoutes, customerPlanRoutes } from "./plans/admin-routes";
import { adminBillingRoutes } from "./billing/admin-routes";
import { seatRoutes } from "./seats/routes";
import { productRoutes } from "./products/routes";
import { urlRoutes, wordRoutes } from "./moderation/routes";
import { providerAdminRoutes } from "./providers/routes";
import { adminSmsRoutes } from "./admin-sms/routes";
import { onboardingRoutes } from "./onboarding/routes";
import { liveConfigRoutes, macroRoutes, omniConfigRoutes, webchatConfigRoutes } from "./live/config-routes";

/** Issue 22's sales tools in one plugin (one more `.use` each on the app type hits TS2589). */
const salesToolsApi = new Elysia({ name: "sales-tools-api" }).use(lookupApi).use(shortenerApi).use(catalogApi).use(pipelinesApi).use(raRoutes);
// Live chat's routes as one plugin: a long chain of .use() in createApp is more than TypeScript's type instantiation depth takes.
const liveApi = new Elysia({ name: "live-api" })
  .use(liveRoutes)
  .use(liveReportRoutes)
  .use(widgetRoutes)
  .use(omniConfigRoutes)
  .use(webchatConfigRoutes)
  .use(macroRoutes)
  .use(liveConfigRoutes)
  .use(channelWebhookRoutes)
  .use(liveFileRoutes)
  .use(widgetUploadRoutes)
  .use(liveChannelRoutes);
/** Platform administration: providers and the route map, audit, logs and SMS trackers, platform-wide SMS reports, monitor, sales and analytics (ADR 062, 065; one `.use`, TS2589). */
const platformAdminApi = new Elysia({ name: "platform-admin-api" }).use(providerAdminRoutes).use(adminAuditRoutes).use(adminSmsRoutes);
/** Plans, billing, usage, customers, agent seats and products, and the platform's plans and invoices (ADR 064) as one plugin: one .use less deep for Elysia's types (TS2589 past ~45 in a chain). */
const moneyApi = new Elysia({ name: "money-api" })
  .use(planRoutes)
  .use(billingApi)
  .use(usageRoutes)
  .use(customerRoutes)
  .use(seatRoutes)
  .use(productRoutes)
  .use(adminPlanRoutes)
  .use(customerPlanRoutes)
  .use(adminBillingRoutes);

export function createApp() {
  let self: AnyElysia | undefined;
  const app = new Elysia({ prefix: "/api" })
    .use(errors)
    // brotli/gzip as the client accepts, after the handlers and the error mapper (ADR 049).
    .use(compression)
    // In tests: every JSON success answer is what its route documents (./http/response-check).
    .use(responseCheck(() => self as AnyElysia))
    // Before every route: bodies other than uploads are at most JSON_BODY_LIMIT_KB.
    .use(bodyLimit)
    .use(docsRoutes)
    .get("/health", () => "OK", { detail: { summary: "Liveness", responses: fileResponse({ "text/plain": "OK" }, "The API is up") } })
    .use(authRoutes)
    .use(twoFactorRoutes)
    .use(twoFactorManageRoutes)
    .use(meRoutes)
    .use(accountRoutes)
    .use(userRoutes)
    .use(departmentRoutes)
    .use(brandRoutes)
    .use(whitelabelAdminRoutes)
    .use(notificationRoutes)
    .use(onboardingRoutes)
    .use(auditRoutes)
    .use(contactRoutes)
    .use(importRoutes)
    .use(providerWebhookRoutes)
    .use(smsReportRoutes)
    .use(customerWebhookRoutes)
    .use(smsRoutes)
    .use(optoutRoutes)
    .use(messageSettingsRoutes)
    .use(shortCodeRoutes)
    .use(campaignRoutes)
    .use(smppRoutes)
    .use(whatsappRoutes)
    .use(rcsApi)
    .use(salesToolsApi)
    .use(emailApi)
    .use(moneyApi)
    .use(whatsappLegacyRoutes)
    .use(whatsappRequestRoutes)
    .use(whatsappWebhookRoutes)
    .use(wordRoutes)
    .use(urlRoutes)
    .use(platformAdminApi)
    .use(whatsappAdminRoutes)
    .use(liveApi)
    .use(flowRoutes)
    .use(flowStreamRoutes)
    .use(supportApi)
    .use(integrationsApi);
  // The OpenAPI document of every route above (./http/openapi); the page at /api/docs shows it.
  self = app;
  return app.get(DOCS_JSON_PATH, () => apiDocument(app), { detail: { hide: true } });
}
