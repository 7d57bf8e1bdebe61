import { Link } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { Button } from "~/components/ui/button";

export const handle = { crumb: "forbidden.title" };

export default function Forbidden() {
  const { t } = useTranslation();
  return (
    <div className="mx-auto flex max-w-lg flex-col items-center gap-4 py-16 text-center" data-testid="forbidden">
      <p className="text-6xl font-bold text-destructive">403</p>
      <h1 className="text-2xl font-semibold">{t("forbidden.title")}</h1>
      <p className="text-muted-foreground">{t("forbidden.body")}</p>
      <Button asChild>
        <Link to="/">{t("forbidden.home")}</Link>
      </Button>
    </div>
  );
}
