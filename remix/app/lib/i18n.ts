/** i18n settings shared by server and browser. Resources live in public/locales/<lng>/<ns>.json. */
export const supportedLngs = ["pt-BR", "en", "es", "zh"] as const;
export type Lng = (typeof supportedLngs)[number];
export const fallbackLng: Lng = "pt-BR";
export const defaultNS = "common";
/** Namespaces sent to the browser (the "mail" namespace stays on the server). */
export const webNamespaces = [
  "common",
  "auth",
  "errors",
  "validation",
  "users",
  "settings",
  "accounts",
  "admin",
  "imports",
  "contacts",
  "shortCodes",
  "sms",
  "smsReports",
  "smsOps",
  "smpp",
  "webhooks",
  "moderation",
  "live",
  "channels",
  "liveDesk",
  "liveReports",
  "whatsapp",
  "rcs",
  "email",
  "emailInsights",
  "emailTemplates",
  "emailCampaigns",
  "emailReports",
  "billing",
  "plans",
  "usage",
  "customers",
  "seats",
  "products",
  "flows",
  "rcs",
  "lookup",
  "catalog",
  "shortener",
  "pipelines",
  "support",
  "adminAudit",
  "adminReports",
  "adminCatalogue",
  "integrations",
  "ra",
] as const;

/** Intl tags for dates, numbers and money. */
export const intlLocale: Record<Lng, string> = { "pt-BR": "pt-BR", en: "en-US", es: "es-ES", zh: "zh-CN" };
export const TIME_ZONE = "America/Sao_Paulo";

export const i18nConfig = {
  supportedLngs: [...supportedLngs],
  fallbackLng,
  defaultNS,
  interpolation: { escapeValue: false },
  react: { useSuspense: false },
  // A key of a namespace the page did not receive shows as "ns:key", which tests can see (ADR 049).
  appendNamespaceToMissingKey: true,
};
