import { useTranslation } from "~/lib/react-i18n";

export const handle = { crumb: "about.title" };

/** Platform stage (spec section 9): PREALPHA, ALPHA, BETA, STABLE — now ALPHA. */
export const PLATFORM_STAGE = "ALPHA";
export const VERSION = "0.1.0";

export default function About() {
  const { t } = useTranslation();
  return (
    <div className="space-y-3 text-center">
      <h1 className="text-2xl font-semibold">{t("about.title")}</h1>
      <p className="text-muted-foreground">{t("about.body")}</p>
      <p className="text-sm">
        {t("about.version", { version: VERSION })} · {t("about.stage", { stage: PLATFORM_STAGE })}
      </p>
    </div>
  );
}
