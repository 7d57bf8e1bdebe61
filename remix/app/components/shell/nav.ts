/** The sidebar by product area. Items are filtered by the permission policy on the server. */
export type NavItem = { key: string; href: string; icon: string };
export type NavGroup = { key: string; items: NavItem[] };

export const NAV: NavGroup[] = [
  { key: "main", items: [{ key: "home", href: "/", icon: "home" }, { key: "notifications", href: "/notifications", icon: "bell" }] },
  { key: "relationship", items: [{ key: "contacts", href: "/contacts", icon: "contacts" }] },
  { key: "people", items: [{ key: "users", href: "/users", icon: "users" }, { key: "departments", href: "/departments", icon: "building" }] },
  { key: "account", items: [{ key: "accounts", href: "/accounts", icon: "briefcase" }, { key: "settings", href: "/settings", icon: "settings" }, { key: "profile", href: "/user/settings", icon: "user" }] },
  { key: "sms", items: [{ key: "antifraud", href: "/sms/antifraude", icon: "shield" }] },
  { key: "platform", items: [{ key: "whitelabel", href: "/admin/whitelabel", icon: "palette" }, { key: "adminAntifraud", href: "/admin/antifraud", icon: "shield" }] },
  { key: "developer", items: [{ key: "webhooks", href: "/webhooks", icon: "webhook" }, { key: "mailbox", href: "/dev/mailbox", icon: "mail" }] },
];
