/** The sidebar by product area. Items are filtered by the permission policy on the server. */
export type NavItem = { key: string; href: string; icon: string };
export type NavGroup = { key: string; items: NavItem[] };

export const NAV: NavGroup[] = [
  {
    key: "main",
    items: [
      { key: "home", href: "/", icon: "home" },
      { key: "notifications", href: "/notifications", icon: "bell" },
    ],
  },
  { key: "relationship", items: [{ key: "contacts", href: "/contacts", icon: "contacts" }] },
  {
    key: "sms",
    items: [
      { key: "smsDashboard", href: "/sms/dashboard", icon: "chart" },
      { key: "smsSend", href: "/sms/send", icon: "send" },
      { key: "smsHistory", href: "/sms/history", icon: "history" },
      { key: "smsCampaigns", href: "/sms/campaigns", icon: "megaphone" },
      { key: "smsTemplates", href: "/sms/templates", icon: "template" },
      { key: "smsExports", href: "/sms/exports", icon: "download" },
      { key: "smsReports", href: "/sms/reports/stat", icon: "report" },
      { key: "smsInsights", href: "/sms/insights", icon: "insights" },
      { key: "smsUsage", href: "/sms/usage", icon: "usage" },
      { key: "smsQueue", href: "/sms/queue", icon: "queue" },
      { key: "smsShortCodes", href: "/sms/short-codes", icon: "hash" },
      { key: "smsOptouts", href: "/sms/optouts", icon: "bell" },
      { key: "smsDenylist", href: "/sms/denylist", icon: "settings" },
      { key: "smsSmpp", href: "/sms/smpp", icon: "briefcase" },
      { key: "antifraud", href: "/sms/antifraude", icon: "shield" },
    ],
  },
  {
    key: "mail",
    items: [
      { key: "mailDashboard", href: "/mail/dashboard", icon: "chart" },
      { key: "mailSend", href: "/mail/send", icon: "send" },
      { key: "mailHistory", href: "/mail/history", icon: "history" },
      { key: "mailExports", href: "/mail/exports", icon: "download" },
      { key: "mailOptouts", href: "/mail/optouts", icon: "bell" },
      { key: "mailDenylist", href: "/mail/denylist", icon: "shield" },
      { key: "mailDomains", href: "/mail/domains", icon: "mail" },
    ],
  },
  {
    key: "whatsapp",
    items: [
      { key: "whatsappOverview", href: "/whatsapp", icon: "chat" },
      { key: "whatsappRequest", href: "/whatsapp/request", icon: "briefcase" },
      { key: "whatsappSend", href: "/whatsapp/send", icon: "send" },
      { key: "whatsappTemplates", href: "/whatsapp/templates", icon: "template" },
      { key: "whatsappHistory", href: "/whatsapp/history", icon: "history" },
      { key: "whatsappCampaigns", href: "/whatsapp/campaigns", icon: "megaphone" },
      { key: "whatsappExports", href: "/whatsapp/exports", icon: "download" },
      { key: "whatsappReports", href: "/whatsapp/reports", icon: "report" },
      { key: "whatsappInsights", href: "/whatsapp/insights", icon: "insights" },
      { key: "whatsappUsage", href: "/whatsapp/usage", icon: "usage" },
      { key: "whatsappDenylist", href: "/whatsapp/denylist", icon: "shield" },
      { key: "whatsappOptouts", href: "/whatsapp/optouts", icon: "bell" },
      { key: "whatsappJvNumbers", href: "/whatsapp/jv/numbers", icon: "hash" },
      { key: "whatsappJvSend", href: "/whatsapp/jv/send", icon: "send" },
      { key: "whatsappJvTemplates", href: "/whatsapp/jv/templates", icon: "template" },
      { key: "whatsappJvHistory", href: "/whatsapp/jv/history", icon: "history" },
      { key: "whatsappJvReports", href: "/whatsapp/jv/reports", icon: "report" },
    ],
  },
  {
    key: "live",
    items: [
      { key: "liveDesk", href: "/live", icon: "chat" },
      { key: "liveDashboard", href: "/live/dashboard", icon: "chart" },
      { key: "liveManage", href: "/live/manage", icon: "users" },
      { key: "liveHistory", href: "/live/history", icon: "history" },
      { key: "liveReports", href: "/live/reports", icon: "report" },
      { key: "liveUsage", href: "/live/usage", icon: "usage" },
      { key: "liveExports", href: "/chat/reports", icon: "download" },
      { key: "liveSystem", href: "/live/configs/system", icon: "settings" },
      { key: "liveWidget", href: "/live/configs/widget", icon: "palette" },
      { key: "liveTabulations", href: "/tabulations", icon: "hash" },
      { key: "liveResponses", href: "/responses", icon: "template" },
      { key: "liveMacros", href: "/chat/macros", icon: "queue" },
      { key: "liveOpeningHours", href: "/opening-hours", icon: "history" },
      { key: "liveHolidays", href: "/holidays", icon: "megaphone" },
      { key: "livePreferences", href: "/live/preferences", icon: "bell" },
    ],
  },
  {
    key: "people",
    items: [
      { key: "users", href: "/users", icon: "users" },
      { key: "departments", href: "/departments", icon: "building" },
    ],
  },
  {
    key: "account",
    items: [
      { key: "accounts", href: "/accounts", icon: "briefcase" },
      { key: "settings", href: "/settings", icon: "settings" },
      { key: "channels", href: "/channels", icon: "send" },
      { key: "profile", href: "/user/settings", icon: "user" },
    ],
  },
  {
    key: "platform",
    items: [
      { key: "whitelabel", href: "/admin/whitelabel", icon: "palette" },
      { key: "adminAntifraud", href: "/admin/antifraud", icon: "shield" },
      { key: "adminProviders", href: "/admin/providers", icon: "send" },
      { key: "adminWhatsappStat", href: "/admin/whatsapp/reports/stat", icon: "report" },
      { key: "adminWhatsappHistory", href: "/admin/whatsapp/reports/history", icon: "history" },
      { key: "adminWhatsappInsights", href: "/admin/whatsapp/reports/insights", icon: "insights" },
    ],
  },
  {
    key: "developer",
    items: [
      { key: "webhooks", href: "/webhooks", icon: "webhook" },
      { key: "mailbox", href: "/dev/mailbox", icon: "mail" },
    ],
  },
];
