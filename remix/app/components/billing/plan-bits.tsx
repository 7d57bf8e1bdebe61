/** Pieces the plan screens share (/plans, /billing, /billing/plans/{id}, /billing/upgrade): a plan's price with its cycle, and its features. */
import { useTranslation } from "~/lib/react-i18n";
import { PLAN_PERMISSIONS } from "../../../../models/constants";
import { formatMoney } from "~/lib/format";
import type { Lng } from "~/lib/i18n";

export type PlanLike = { price: number; currency: string; billing_cycle: string; is_trial: boolean; permissions?: Partial<Record<string, boolean>> };

/** "R$ 149,00 per month", "Free", "R$ 10,00 prepaid". */
export function PlanPrice({ plan, lng }: { plan: PlanLike; lng: Lng }) {
  const { t } = useTranslation("plans");
  if (plan.price === 0) return <span>{t("plans.free")}</span>;
  return (
    <span>
      <span className="font-semibold">{formatMoney(plan.price, plan.currency, lng)}</span> <span className="text-muted-foreground">{t(`cycles.${plan.billing_cycle}`)}</span>
    </span>
  );
}

/** The features a plan switches on, as a list (or "No extra features"). */
export function PlanFeatures({ plan }: { plan: PlanLike }) {
  const { t } = useTranslation("plans");
  const on = PLAN_PERMISSIONS.filter((p) => plan.permissions?.[p]);
  if (!on.length) return <p className="text-sm text-muted-foreground">{t("plans.noFeatures")}</p>;
  return (
    <ul className="list-inside list-disc text-sm" aria-label={t("plans.features")}>
      {on.map((p) => (
        <li key={p}>{t(`permissions.${p}`)}</li>
      ))}
    </ul>
  );
}
