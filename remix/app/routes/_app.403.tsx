/**
 * /403: why a page was refused (issue 19). A refusal by the plan names the feature that unlocks it,
 * the plans that include it and links to /billing/upgrade; a refusal by the role says the role does
 * not allow it (upgrading would not help). The refused path comes in the navigation guard's short
 * `forbidden_from` cookie (the redirect stays a plain /403).
 */
import type { LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { useTranslation } from "~/lib/react-i18n";
import { plansWith } from "~api/plans/services";
import { can, decide } from "~api/policy/policy";
import { Button } from "~/components/ui/button";
import { forbiddenFrom, requireRoute } from "~/lib/auth.server";

export const handle = { crumb: "forbidden.title" };

export async function loader({ request }: LoaderFunctionArgs) {
  const ctx = await requireRoute(request);
  const from = String((await forbiddenFrom.parse(request.headers.get("Cookie"))) ?? "");
  // Only a path of this site (not //host): anything else is a plain refusal.
  const path = /^\/(?!\/)[^\s]*$/.test(from) ? from : null;
  const d = path ? decide(ctx.actor, path) : null;
  if (d && !d.allowed && d.reason === "plan") {
    return json({ kind: "plan" as const, feature: d.feature, plans: await plansWith(d.feature), canUpgrade: can(ctx.actor, "/billing/upgrade") });
  }
  return json({ kind: d && !d.allowed ? ("role" as const) : ("unknown" as const), feature: null, plans: [] as string[], canUpgrade: false });
}

export default function Forbidden() {
  const { kind, feature, plans, canUpgrade } = useLoaderData<typeof loader>();
  const { t } = useTranslation();
  return (
    <div className="mx-auto flex max-w-lg flex-col items-center gap-4 py-16 text-center" data-testid="forbidden" data-reason={kind}>
      <p className="text-6xl font-bold text-destructive">403</p>
      <h1 className="text-2xl font-semibold">{kind === "plan" ? t("forbidden.planTitle") : t("forbidden.title")}</h1>
      {kind === "plan" && feature ? (
        <>
          <p data-testid="forbidden-plan">{t("forbidden.plan", { feature: t(`plans:features.${feature}`) })}</p>
          {plans.length > 0 ? <p className="text-muted-foreground">{t("forbidden.plansWith", { plans: plans.join(", "), count: plans.length })}</p> : null}
          {canUpgrade ? (
            <Button asChild>
              <Link to="/billing/upgrade">{t("forbidden.upgrade")}</Link>
            </Button>
          ) : (
            <p className="text-muted-foreground">{t("forbidden.askOwner")}</p>
          )}
        </>
      ) : (
        <p className="text-muted-foreground">{kind === "role" ? t("forbidden.role") : t("forbidden.body")}</p>
      )}
      <Button asChild variant={kind === "plan" ? "outline" : "default"}>
        <Link to="/">{t("forbidden.home")}</Link>
      </Button>
    </div>
  );
}
