/** Every route of spec section 2, with sample values for its parameters. */
const ID = "00000000-0000-4000-8000-000000000001";

export const GUEST_ROUTES = [
  "/experience", "/obrigado", "/login", "/register", "/success", `/email-verify/${ID}`, "/reset-password", `/reset-verification/${ID}`,
  `/invitation/${ID}`, "/callback/google", "/callback/facebook", "/health", "/webchat", "/about",
];

export const APP_ROUTES = [
  "/", "/notifications", "/support", "/support/new-ticket", "/support/messages-ticket", `/support/${ID}`, "/accounts", "/accounts/create",
  "/chat/webchat", "/chat/configs", "/invoices", `/invoice/${ID}`, "/new-invoice", "/billing", `/billing/plans/${ID}`, "/billing/upgrade", "/usage",
  "/catalog/list", "/catalog/list/registered", "/settings", "/settings/resources", "/settings/messages", "/departments", "/webhooks", "/channels",
  "/lookup", "/lookup/list", "/lookup/usage", "/user/settings", "/campaigns", "/plans", "/numbers/active", "/configs/tabulations", "/customer/products",
  "/users", "/users/invite", `/users/edit/${ID}`,
  // admin
  "/admin/plans", "/admin/plans/create", `/admin/plans/${ID}/edit`, "/admin/customers", "/admin/customers/create", `/admin/customers/${ID}`,
  `/admin/customers/${ID}/products/create`, `/admin/customers/${ID}/short-codes/create`, `/admin/customers/${ID}/plans/create`,
  `/admin/customers/${ID}/plans/${ID}`, `/admin/customers/${ID}/short-codes/${ID}`, `/admin/customers/${ID}/products/${ID}`, `/admin/customers/${ID}/numbers/${ID}`,
  "/admin/antifraud", "/admin/invoices", "/admin/providers", "/admin/short-codes", "/admin/products", "/admin/products/create", `/admin/products/${ID}`,
  "/admin/tickets", `/admin/support/${ID}`, "/admin/sms/reports", "/admin/sms/dashboard", "/admin/sms/monitor", "/admin/sms/sales",
  "/admin/email/stat", "/admin/email/history", "/admin/email/insights", "/admin/email/usage", "/admin/whatsapp/stat", "/admin/whatsapp/history",
  "/admin/whatsapp/insights", "/admin/rcs/stat", "/admin/rcs/history", "/admin/rcs/insights", "/admin/whitelabel", "/admin/analytics", "/admin/audit",
  "/admin/audit/insights", "/admin/logs", "/admin/trackers",
  // sms
  "/sms/dashboard", "/sms/short-codes", `/sms/short-codes/${ID}`, "/sms/insights", "/sms/send", "/sms/send/success", "/sms/campaigns", `/sms/campaigns/${ID}`,
  "/sms/exports", "/sms/templates", "/sms/queue", "/sms/reports/stat", "/sms/reports/history", `/sms/reports/history/${ID}`, "/sms/reports/usage",
  "/sms/reports/campaign", "/sms/reports/exports", "/sms/usage", "/sms/history", `/sms/history/${ID}`, "/sms/antifraude", "/sms/denylist", "/sms/optouts",
  "/sms/smpp", "/sms/blacklist",
  // mail
  "/mail/send", "/mail/send/success", "/mail/insights", "/mail/templates", "/mail/templates/create", `/mail/templates/create/${ID}`, "/mail/dashboard",
  "/mail/history", `/mail/history/${ID}`, "/mail/campaigns", `/mail/campaigns/${ID}`, "/mail/exports", "/mail/domains", "/mail/denylist", "/mail/reports",
  "/mail/usage", "/mail/optouts",
  // whatsapp
  "/whatsapp", "/whatsapp/request", "/whatsapp/send", "/whatsapp/success", "/whatsapp/insights", "/whatsapp/history", `/whatsapp/history/${ID}`,
  "/whatsapp/campaigns", `/whatsapp/campaigns/${ID}`, "/whatsapp/exports", "/whatsapp/templates", "/whatsapp/templates/new", "/whatsapp/denylist",
  "/whatsapp/optouts", "/whatsapp/reports", "/whatsapp/usage", "/whatsapp/jv/send", "/whatsapp/jv/numbers", "/whatsapp/jv/numbers/new", "/whatsapp/jv/success",
  "/whatsapp/jv/history", `/whatsapp/jv/history/${ID}`, "/whatsapp/jv/templates", "/whatsapp/jv/templates/new", "/whatsapp/jv/denylist", "/whatsapp/jv/reports",
  // rcs
  "/rcs", "/rcs/request", "/rcs/insights", "/rcs/denylist", "/rcs/optouts", "/rcs/history", `/rcs/history/${ID}`, "/rcs/campaigns", `/rcs/campaigns/${ID}`,
  "/rcs/templates", "/rcs/templates/new", "/rcs/templates/edit", "/rcs/send", "/rcs/success", "/rcs/reports", "/rcs/agents", `/rcs/agents/${ID}`,
  // other
  "/ra", "/ra/all", "/ra/report", `/ra/view-ticket/${ID}`, "/contacts", "/contacts/detail", "/contacts/groups", `/contacts/groups/${ID}`, "/contacts/import",
  "/integrations", "/integrations/installed", `/integrations/${ID}`,
  "/live/dashboard", "/live", "/live/manage", "/live/configs/system", "/live/configs/widget", "/widget", "/widget/config", "/holidays", "/holidays/create",
  "/opening-hours", "/opening-hours/create", "/responses", "/tabulations", "/live/reports", "/live/usage", "/live/billing", "/live/history",
  `/live/history/${ID}`, "/live/report", "/chat/macros", `/chat/macros/${ID}/edit`, "/chat/reports",
  "/flows", "/flows/create", "/flows/templates", `/flows/${ID}`, `/flows/${ID}/stream/${ID}`, "/flows/reports",
  "/pipelines", `/pipelines/${ID}`, `/pipelines/${ID}/deals/${ID}`, "/pipelines/reports", "/shortener/links", "/shortener/reports/stat",
];
