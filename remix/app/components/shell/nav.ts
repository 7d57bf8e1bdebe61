import type { PlanFeature } from "~api/policy/policy";

/**
 * The sidebar by product area. Items are filtered by the permission policy on the server
 * (remix/app/lib/shell.server.ts), and a group with a `feature` shows only when the account's plans
 * include it: live chat's area needs the omni service even for its screens outside /live (macros,
 * holidays, canned messages), which the policy leaves open.
 */
export type NavItem = { key: string; href: string; icon: string };
export type NavGroup = { key: string; items: NavItem[]; feature?: PlanFeature };

export const NAV: NavGroup[] = [
  {
    key: "main",
    items: [
      { key: "home", href: "/", icon: "home" },
      { key: "notifications", href: "/notifications", icon: "bell" },
      { key: "allCampaigns", href: "/campaigns", icon: "megaphone" },
      { key: "support", href: "/support", icon: "chat" },
    ],
  },
  { key: "relationship", items: [{ key: "contacts", href: "/contacts", icon: "contacts" }] },
  // Number lookup (issue 22).
  {
    key: "lookup",
    items: [
      { key: "lookupSingle", href: "/lookup", icon: "hash" },
      { key: "lookupList", href: "/lookup/list", icon: "queue" },
      { key: "lookupUsage", href: "/lookup/usage", icon: "usage" },
    ],
  },
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
      { key: "mailTemplates", href: "/mail/templates", icon: "template" },
      { key: "mailHistory", href: "/mail/history", icon: "history" },
      { key: "mailExports", href: "/mail/exports", icon: "download" },
      { key: "mailOptouts", href: "/mail/optouts", icon: "bell" },
      { key: "mailDenylist", href: "/mail/denylist", icon: "shield" },
      { key: "mailDomains", href: "/mail/domains", icon: "mail" },
      { key: "mailInsights", href: "/mail/insights", icon: "insights" },
      { key: "mailCampaigns", href: "/mail/campaigns", icon: "megaphone" },
      { key: "mailReports", href: "/mail/reports", icon: "report" },
      { key: "mailUsage", href: "/mail/usage", icon: "usage" },
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
  // RCS (issue 21).
  {
    key: "rcs",
    items: [
      { key: "rcsOverview", href: "/rcs", icon: "chat" },
      { key: "rcsRequest", href: "/rcs/request", icon: "briefcase" },
      { key: "rcsAgents", href: "/rcs/agents", icon: "users" },
      { key: "rcsSend", href: "/rcs/send", icon: "send" },
      { key: "rcsTemplates", href: "/rcs/templates", icon: "template" },
      { key: "rcsHistory", href: "/rcs/history", icon: "history" },
      { key: "rcsCampaigns", href: "/rcs/campaigns", icon: "megaphone" },
      { key: "rcsReports", href: "/rcs/reports", icon: "report" },
      { key: "rcsInsights", href: "/rcs/insights", icon: "insights" },
      { key: "rcsDenylist", href: "/rcs/denylist", icon: "shield" },
      { key: "rcsOptouts", href: "/rcs/optouts", icon: "bell" },
    ],
  },
  // Catalogue (issue 22).
  {
    key: "catalog",
    items: [
      { key: "catalogList", href: "/catalog/list", icon: "briefcase" },
      { key: "catalogRegistered", href: "/catalog/list/registered", icon: "send" },
    ],
  },
  // Reclame Aqui complaints (issue 23, ADR 067).
  {
    key: "ra",
    items: [
      { key: "raOverview", href: "/ra", icon: "shield" },
      { key: "raAll", href: "/ra/all", icon: "history" },
      { key: "raReport", href: "/ra/report", icon: "report" },
    ],
  },
  // URL shortener (issue 22).
  {
    key: "shortener",
    items: [
      { key: "shortenerLinks", href: "/shortener/links", icon: "send" },
      { key: "shortenerStats", href: "/shortener/reports/stat", icon: "report" },
    ],
  },
  {
    key: "live",
    feature: "omni",
    items: [
      { key: "liveDesk", href: "/live", icon: "chat" },
      { key: "liveDashboard", href: "/live/dashboard", icon: "chart" },
      { key: "liveFlows", href: "/flows", icon: "queue" },
      { key: "liveManage", href: "/live/manage", icon: "users" },
      { key: "liveHistory", href: "/live/history", icon: "history" },
      { key: "liveReports", href: "/live/reports", icon: "report" },
      { key: "liveAgentReport", href: "/live/report", icon: "chart" },
      { key: "liveUsage", href: "/live/usage", icon: "usage" },
      { key: "liveBilling", href: "/live/billing", icon: "usage" },
      { key: "liveExports", href: "/chat/reports", icon: "download" },
      { key: "liveSystem", href: "/live/configs/system", icon: "settings" },
      { key: "liveWidgetHome", href: "/widget", icon: "chat" },
      { key: "liveWidget", href: "/live/configs/widget", icon: "palette" },
      { key: "liveTabulations", href: "/tabulations", icon: "hash" },
      { key: "liveResponses", href: "/responses", icon: "template" },
      { key: "liveMacros", href: "/chat/macros", icon: "queue" },
      { key: "liveOpeningHours", href: "/opening-hours", icon: "history" },
      { key: "liveHolidays", href: "/holidays", icon: "megaphone" },
      { key: "livePreferences", href: "/live/preferences", icon: "bell" },
    ],
  },
  // Workflow boards (issue 22).
  {
    key: "pipelines",
    items: [
      { key: "pipelinesBoards", href: "/pipelines", icon: "kanban" },
      { key: "pipelinesReports", href: "/pipelines/reports", icon: "report" },
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
      { key: "billing", href: "/billing", icon: "usage" },
      { key: "plans", href: "/plans", icon: "briefcase" },
      { key: "invoices", href: "/invoices", icon: "report" },
      { key: "newInvoice", href: "/new-invoice", icon: "usage" },
      { key: "usage", href: "/usage", icon: "chart" },
      { key: "numbersActive", href: "/numbers/active", icon: "hash" },
      { key: "customerProducts", href: "/customer/products", icon: "briefcase" },
      { key: "profile", href: "/user/settings", icon: "user" },
    ],
  },
  {
    key: "platform",
    items: [
      { key: "whitelabel", href: "/admin/whitelabel", icon: "palette" },
      { key: "adminCustomers", href: "/admin/customers", icon: "users" },
      { key: "adminTickets", href: "/admin/tickets", icon: "chat" },
      { key: "adminPlans", href: "/admin/plans", icon: "briefcase" },
      { key: "adminProducts", href: "/admin/products", icon: "briefcase" },
      { key: "adminShortCodes", href: "/admin/short-codes", icon: "hash" },
      { key: "adminInvoices", href: "/admin/invoices", icon: "report" },
      { key: "adminAntifraud", href: "/admin/antifraud", icon: "shield" },
      { key: "adminProviders", href: "/admin/providers", icon: "send" },
      { key: "adminAudit", href: "/admin/audit", icon: "shield" },
      { key: "adminAuditInsights", href: "/admin/audit/insights", icon: "insights" },
      { key: "adminLogs", href: "/admin/logs", icon: "report" },
      { key: "adminTrackers", href: "/admin/trackers", icon: "hash" },
      { key: "adminWhatsappStat", href: "/admin/whatsapp/reports/stat", icon: "report" },
      { key: "adminWhatsappHistory", href: "/admin/whatsapp/reports/history", icon: "history" },
      { key: "adminWhatsappInsights", href: "/admin/whatsapp/reports/insights", icon: "insights" },
      { key: "adminRcsAgents", href: "/admin/rcs/agents", icon: "chat" },
      { key: "adminRcsStat", href: "/admin/rcs/reports/stat", icon: "report" },
      { key: "adminRcsHistory", href: "/admin/rcs/reports/history", icon: "history" },
      { key: "adminRcsInsights", href: "/admin/rcs/reports/insights", icon: "insights" },
      { key: "adminEmailStat", href: "/admin/email/reports/stat", icon: "report" },
      { key: "adminEmailHistory", href: "/admin/email/reports/history", icon: "history" },
      { key: "adminEmailInsights", href: "/admin/email/reports/insights", icon: "insights" },
      { key: "adminEmailUsage", href: "/admin/email/reports/usage", icon: "usage" },
      { key: "adminSmsReports", href: "/admin/sms/reports", icon: "report" },
      { key: "adminSmsDashboard", href: "/admin/sms/dashboard", icon: "chart" },
      { key: "adminSmsMonitor", href: "/admin/sms/monitor", icon: "insights" },
      { key: "adminSmsSales", href: "/admin/sms/sales", icon: "usage" },
      { key: "adminAnalytics", href: "/admin/analytics", icon: "chart" },
    ],
  },
  {
    key: "developer",
    items: [
      { key: "webhooks", href: "/webhooks", icon: "webhook" },
      { key: "integrations", href: "/integrations", icon: "webhook" },
      { key: "mailbox", href: "/dev/mailbox", icon: "mail" },
    ],
  },
];

/**
 * The group holding `pathname`: the one whose link shares the most leading path segments with it
 * (/sms/reports/history is the SMS group's, through /sms/reports/stat); "/" only for the home link.
 * Its <details> starts open in the sidebar, the others closed.
 */
export function currentGroup(nav: Array<{ key: string; items: Array<{ href: string }> }>, pathname: string): string | undefined {
  const segments = pathname.split("/").filter(Boolean);
  let best: { key: string; score: number } | undefined;
  for (const group of nav) {
    for (const item of group.items) {
      if (item.href === "/") {
        if (segments.length === 0) return group.key;
        continue;
      }
      const own = item.href.split("/").filter(Boolean);
      let score = 0;
      while (score < own.length && own[score] === segments[score]) score++;
      // An exact link wins over a shared prefix (e.g. /live within the desk's group, not /live/configs).
      if (score === own.length && own.length === segments.length) score += 0.5;
      if (score > 0 && (!best || score > best.score)) best = { key: group.key, score };
    }
  }
  return best?.key;
}
