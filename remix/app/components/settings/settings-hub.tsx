/** The settings groups the acting role may open, each a card linking to its screen. */
import { Link } from "@remix-run/react";
import { Briefcase, Building2, Palette, Settings, Users, type LucideIcon } from "lucide-react";
import { useTranslation } from "~/lib/react-i18n";
import type { SettingsHubCard } from "~api/accounts/settings-hub";
import { Card, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";

const ICONS: Partial<Record<string, LucideIcon>> = { account: Briefcase, users: Users, departments: Building2, settings: Settings, whitelabel: Palette };

export function SettingsHub({ cards }: { cards: SettingsHubCard[] }) {
  const { t } = useTranslation("settings");
  if (cards.length === 0) return null;
  return (
    <section aria-labelledby="settings-hub-title" className="space-y-4" data-testid="settings-hub">
      <div className="space-y-1">
        <h2 id="settings-hub-title" className="text-lg font-semibold">
          {t("hub.title")}
        </h2>
        <p className="text-sm text-muted-foreground">{t("hub.description")}</p>
      </div>
      <ul className="grid gap-4 sm:grid-cols-2 xl:grid-cols-3">
        {cards.map((c) => {
          const Icon = ICONS[c.group] ?? Settings;
          return (
            <li key={c.group}>
              <Link
                to={c.group === "settings" ? `${c.href}#account-settings` : c.href}
                className="block h-full rounded-xl focus-visible:outline-2 focus-visible:outline-ring"
                data-group={c.group}
              >
                <Card className="h-full transition-colors hover:border-primary hover:bg-primary/5">
                  <CardHeader>
                    <CardTitle className="flex items-center gap-2">
                      <Icon className="size-4 text-primary" aria-hidden /> {t(`hub.groups.${c.group}.title`)}
                    </CardTitle>
                    <CardDescription>{t(`hub.groups.${c.group}.description`)}</CardDescription>
                  </CardHeader>
                </Card>
              </Link>
            </li>
          );
        })}
      </ul>
    </section>
  );
}
