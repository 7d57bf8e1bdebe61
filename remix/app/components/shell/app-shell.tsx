/**
 * The signed-in frame: sidebar by product area, account switcher, user menu, language switch.
 * Everything here works without JavaScript (plain forms, <details> menus).
 */
import { Form, Link, NavLink, useLocation } from "@remix-run/react";
import {
  Bell,
  BookUser,
  Briefcase,
  Building2,
  FileText,
  Hash,
  Home,
  Mail,
  Palette,
  Send,
  Settings,
  User,
  Users,
  Menu,
  LogOut,
  ChevronDown,
  BarChart3,
  Download,
  FileBarChart,
  History,
  Lightbulb,
  ListOrdered,
  Receipt,
  Megaphone,
  ShieldAlert,
  Webhook,
  MessagesSquare,
  SquareKanban,
} from "lucide-react";
import { useTranslation } from "~/lib/react-i18n";
import { CsrfInput } from "~/components/forms/fields";
import { LiveConnectionBanner, LiveHeaderStatus, LiveProvider } from "~/components/live/live-provider";
import { LiveNotifications } from "~/components/notifications/live-notifications";
import { Button } from "~/components/ui/button";
import { NativeSelect } from "~/components/ui/native-select";
import { formatDate, formatMoney } from "~/lib/format";
import { supportedLngs, type Lng } from "~/lib/i18n";
import { cn } from "~/lib/utils";
import { currentGroup } from "./nav";

const ICONS: Record<string, React.ComponentType<{ className?: string }>> = {
  hash: Hash,
  home: Home,
  bell: Bell,
  contacts: BookUser,
  users: Users,
  building: Building2,
  briefcase: Briefcase,
  settings: Settings,
  user: User,
  palette: Palette,
  mail: Mail,
  send: Send,
  template: FileText,
  chart: BarChart3,
  history: History,
  download: Download,
  report: FileBarChart,
  insights: Lightbulb,
  usage: Receipt,
  queue: ListOrdered,
  megaphone: Megaphone,
  webhook: Webhook,
  shield: ShieldAlert,
  chat: MessagesSquare,
  kanban: SquareKanban,
};

export type ShellProps = {
  user: { name: string; email: string };
  account: { id: string; name: string; balance: number; currency: string; role: string };
  accounts: Array<{ id: string; name: string; role: string }>;
  unread: number;
  nav: Array<{ key: string; items: Array<{ key: string; href: string; icon: string }> }>;
  /** The live connection runs for this person in this account (omni plan, agent or supervisor). */
  live?: boolean;
  /** Redis clock (ms) when the shell's data was read: where the live socket starts. */
  liveMark?: number | null;
  /** The trial ending within a week, or ended with no plan chosen since (remix/app/lib/shell.server.ts trialNotice). */
  trial?: { state: "ending" | "ended"; at: string; canChoose: boolean } | null;
  brandName?: string;
  lng: Lng;
  children: React.ReactNode;
};

/**
 * The sidebar: one <details> per product area (collapsible without JavaScript), the group holding
 * the current page open and the home group always, the others closed until their summary is clicked.
 */
function Sidebar({ nav, unread }: Pick<ShellProps, "nav" | "unread">) {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const current = currentGroup(nav, pathname);
  return (
    <nav aria-label={t("nav.main")} className="space-y-1">
      {nav.map((group) => (
        <details key={group.key} data-group={group.key} open={group.key === current || group.key === "main"} className="group/nav">
          <summary className="flex cursor-pointer list-none items-center justify-between gap-2 rounded-md px-3 py-2 text-xs font-semibold uppercase tracking-wide text-muted-foreground hover:bg-accent [&::-webkit-details-marker]:hidden">
            {t(`nav.${group.key}`)}
            <ChevronDown className="size-4 shrink-0 transition-transform group-open/nav:rotate-180" aria-hidden />
          </summary>
          <ul className="space-y-1 pb-2">
            {group.items.map((item) => {
              const Icon = ICONS[item.icon] ?? Home;
              return (
                <li key={item.href}>
                  <NavLink
                    to={item.href}
                    // An area's overview (/rcs, /whatsapp) is current only on itself, not on the area's other screens listed beside it.
                    end={item.href === "/" || group.items.some((o) => o.href.startsWith(`${item.href}/`))}
                    className={({ isActive }) => cn("flex items-center gap-3 rounded-md px-3 py-2 text-sm hover:bg-accent", isActive && "bg-primary/10 font-medium text-primary")}
                  >
                    <Icon className="size-4 shrink-0" />
                    <span className="min-w-0 flex-1">{t(`nav.${item.key}`)}</span>
                    {item.key === "notifications" && unread > 0 ? (
                      <span className="rounded-full bg-primary px-2 text-xs text-primary-foreground">
                        <span aria-hidden="true">{unread}</span>
                        <span className="sr-only">{t("shell.unread", { count: unread })}</span>
                      </span>
                    ) : null}
                  </NavLink>
                </li>
              );
            })}
          </ul>
        </details>
      ))}
    </nav>
  );
}

export function AppShell({ user, account, accounts, unread, nav, live = false, liveMark = null, trial = null, brandName, lng, children }: ShellProps) {
  const { t } = useTranslation();
  const brand = brandName ?? t("appName");
  const { pathname } = useLocation();
  return (
    <LiveProvider enabled={live} mark={liveMark} accountId={account.id} lang={lng}>
      <div className="min-h-screen md:grid md:grid-cols-[16rem_1fr]">
        <a href="#content" className="sr-only focus:not-sr-only focus:absolute focus:p-2">
          {t("shell.skipToContent")}
        </a>
        <aside className="hidden border-r bg-sidebar p-4 md:block">
          <Link to="/" className="mb-6 flex items-center gap-2 px-3 text-lg font-semibold text-primary">
            <span className="inline-block size-6 rounded bg-primary" aria-hidden /> {brand}
          </Link>
          <Sidebar nav={nav} unread={unread} />
        </aside>
        <div className="flex min-w-0 flex-col">
          <header className="relative flex flex-wrap items-center gap-3 border-b px-4 py-3">
            {/* On a phone the sidebar sits behind this button: a full-width panel under the header, scrolling within the screen. Keyed by the page, so it closes after a link is followed. */}
            <details key={pathname} className="md:hidden" data-testid="mobile-menu">
              <summary
                className="flex cursor-pointer list-none items-center gap-2 rounded-md border px-3 py-2 text-sm [&::-webkit-details-marker]:hidden"
                aria-label={t("actions.openMenu")}
              >
                <Menu className="size-4" /> <span className="max-w-32 truncate">{brand}</span>
              </summary>
              <div
                data-testid="mobile-menu-panel"
                className="absolute inset-x-0 top-full z-30 max-h-[calc(100dvh-100%)] overflow-y-auto overscroll-contain border-b bg-popover p-3 shadow-lg"
              >
                <Sidebar nav={nav} unread={unread} />
              </div>
            </details>

            <Form method="post" action="/accounts/switch" className="flex items-center gap-2" aria-label={t("shell.accountSwitcher")}>
              <CsrfInput />
              <label htmlFor="switch-account" className="sr-only">
                {t("shell.currentAccount")}
              </label>
              <NativeSelect
                id="switch-account"
                name="accountId"
                defaultValue={account.id}
                className="h-9 max-w-56"
                data-autosubmit=""
                onChange={(e) => e.currentTarget.form?.requestSubmit()}
              >
                {accounts.map((a) => (
                  <option key={a.id} value={a.id}>
                    {a.name}
                  </option>
                ))}
              </NativeSelect>
              <noscript>
                <Button type="submit" size="sm" variant="outline">
                  {t("actions.switch")}
                </Button>
              </noscript>
            </Form>

            <span className="hidden text-sm text-muted-foreground sm:inline">
              {t("shell.balance")}:{" "}
              <strong className="text-foreground" data-testid="balance">
                {formatMoney(account.balance, account.currency, lng)}
              </strong>
            </span>

            <div className="ml-auto flex items-center gap-2">
              <LiveHeaderStatus />
              <Link to="/notifications" className="relative rounded-md p-2 hover:bg-accent" aria-label={t("nav.notifications")}>
                <Bell className="size-5" />
                {unread > 0 ? <span className="absolute -right-0.5 -top-0.5 rounded-full bg-destructive px-1.5 text-[10px] text-white">{unread}</span> : null}
              </Link>
              <details className="relative" data-testid="user-menu">
                <summary className="flex cursor-pointer list-none items-center gap-2 rounded-md px-2 py-1 text-sm hover:bg-accent" aria-label={t("shell.userMenu")}>
                  <span className="flex size-8 items-center justify-center rounded-full bg-primary text-primary-foreground">{user.name.slice(0, 1).toUpperCase()}</span>
                  <span className="hidden text-left sm:block">
                    <span className="block font-medium leading-tight">{user.name}</span>
                    <span className="block text-xs text-muted-foreground">{t(`roles.${account.role}`)}</span>
                  </span>
                  <ChevronDown className="size-4" />
                </summary>
                <div className="absolute right-0 z-20 mt-2 w-64 space-y-3 rounded-md border bg-popover p-3 shadow-lg">
                  <p className="truncate text-sm text-muted-foreground">{user.email}</p>
                  <Link to="/user/settings" className="block rounded px-2 py-1 text-sm hover:bg-accent">
                    {t("nav.profile")}
                  </Link>
                  <Form method="post" action="/locale" className="flex items-center gap-2">
                    <CsrfInput />
                    <label htmlFor="shell-locale" className="text-sm">
                      {t("shell.language")}
                    </label>
                    <NativeSelect id="shell-locale" name="locale" defaultValue={lng} className="h-8" data-autosubmit="" onChange={(e) => e.currentTarget.form?.requestSubmit()}>
                      {supportedLngs.map((l) => (
                        <option key={l} value={l}>
                          {t(`languages.${l}`)}
                        </option>
                      ))}
                    </NativeSelect>
                    <noscript>
                      <Button type="submit" size="sm" variant="outline">
                        {t("actions.save")}
                      </Button>
                    </noscript>
                  </Form>
                  <Form method="post" action="/logout">
                    <CsrfInput />
                    <Button type="submit" variant="ghost" size="sm" className="w-full justify-start">
                      <LogOut className="size-4" /> {t("actions.logout")}
                    </Button>
                  </Form>
                </div>
              </details>
            </div>
          </header>
          <LiveConnectionBanner />
          <main id="content" className="flex-1 p-4 md:p-8">
            {trial ? <TrialNotice trial={trial} lng={lng} /> : null}
            {children}
          </main>
          {/* With JavaScript: new notifications refresh the badge and lists live (one stream per account). */}
          <LiveNotifications key={account.id} />
        </div>
      </div>
    </LiveProvider>
  );
}

/** The trial's end, on every screen: a week before, and after it until a plan is chosen (nothing is deleted meanwhile). */
function TrialNotice({ trial, lng }: { trial: NonNullable<ShellProps["trial"]>; lng: Lng }) {
  const { t } = useTranslation();
  return (
    <div role="status" data-testid="trial-notice" className="mb-4 rounded-md border border-amber-400/60 bg-amber-50 px-3 py-2 text-sm dark:bg-amber-950">
      {t(trial.state === "ending" ? "shell.trialEnding" : "shell.trialEnded", { date: formatDate(trial.at, lng) })}{" "}
      {trial.canChoose ? (
        <Link to="/billing/upgrade" className="font-medium underline">
          {t("shell.choosePlan")}
        </Link>
      ) : null}
    </div>
  );
}
