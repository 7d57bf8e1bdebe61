/** The API process's application: one Elysia instance per domain under /api, errors mapped once. */
import { liveRoutes, widgetRoutes } from "./live/routes";
import { liveReportRoutes } from "./live/report-routes";
import { channelWebhookRoutes } from "./live/channel-webhooks";
import { liveChannelRoutes, liveFileRoutes, widgetUploadRoutes } from "./live/channel-routes";
import { auditRoutes } from "./audit/routes";
import { openapi } from "@elysiajs/openapi";
import { Elysia } from "elysia";
import { accountRoutes } from "./accounts/routes";
import { contactRoutes } from "./contacts/routes";
import { authRoutes, twoFactorManageRoutes, twoFactorRoutes } from "./auth/routes";
import { departmentRoutes } from "./departments/routes";
import { errors } from "./http/errors";
import { bodyLimit } from "./http/body-limit";
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
import { shortCodeRoutes } from "./shortcodes/routes";
import { smppRoutes } from "./smpp/routes";
import { urlRoutes, wordRoutes } from "./moderation/routes";
import { providerAdminRoutes } from "./providers/routes";
import { liveConfigRoutes, macroRoutes, omniConfigRoutes, webchatConfigRoutes } from "./live/config-routes";

export function createApp() {
  return new Elysia({ prefix: "/api" })
    .use(errors)
    // Before every route: bodies other than uploads are at most JSON_BODY_LIMIT_KB.
    .use(bodyLimit)
    .use(openapi({ path: "/docs", documentation: { info: { title: "Mensageria API", version: "1.0.0", description: "JWT bearer API for integrators. Sign in at POST /api/auth/login. Request bodies are at most 1 MB (JSON_BODY_LIMIT_KB) except files sent as multipart/form-data to the upload routes (CSV imports, SMS recipient files, live chat files); a larger body is answered 413 BODY_TOO_LARGE." }, components: { securitySchemes: { bearer: { type: "http", scheme: "bearer", bearerFormat: "JWT" } } } } }))
    .get("/health", () => "OK", { detail: { summary: "Liveness" } })
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
    .use(planRoutes)
    .use(auditRoutes)
    .use(contactRoutes)
    .use(importRoutes)
    .use(providerWebhookRoutes)
    .use(smsReportRoutes)
    .use(customerWebhookRoutes)
    .use(smsRoutes)
    .use(optoutRoutes)
    .use(shortCodeRoutes)
    .use(campaignRoutes)
    .use(smppRoutes)
    .use(wordRoutes)
    .use(urlRoutes)
    .use(providerAdminRoutes)
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
}
