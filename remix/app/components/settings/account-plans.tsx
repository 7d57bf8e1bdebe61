/** The account's active plans, by service. */
import { useTranslation } from "~/lib/react-i18n";
import { Badge } from "~/components/ui/badge";
import { Card, CardContent, CardHeader, CardTitle } from "~/components/ui/card";
import { formatDate } from "~/lib/format";
import type { Lng } from "~/lib/i18n";

export type PlanRow = { service: string; name: string; endsAt: string | null; trial: boolean };

export function AccountPlans({ plans, lng }: { plans: PlanRow[]; lng: Lng }) {
  const { t } = useTranslation("settings");
  return (
    <Card data-testid="account-plans">
      <CardHeader>
        <CardTitle>{t("plans.title")}</CardTitle>
      </CardHeader>
      <CardContent>
        {plans.length === 0 ? <p className="text-sm text-muted-foreground">{t("plans.none")}</p> : null}
        <ul className="space-y-3">
          {plans.map((p) => (
            <li key={p.service} className="flex flex-wrap items-center justify-between gap-2 text-sm">
              <span className="font-medium">{p.name}</span>
              <span className="flex flex-wrap items-center gap-2">
                <Badge variant="secondary">{p.service}</Badge>
                {p.trial ? <Badge variant="warning">{t("plans.trial")}</Badge> : null}
                <span className="text-muted-foreground">{p.endsAt ? t("plans.endsAt", { date: formatDate(p.endsAt, lng) }) : t("plans.noEnd")}</span>
              </span>
            </li>
          ))}
        </ul>
      </CardContent>
    </Card>
  );
}
