/**
 * "First" and "Next" links of a WhatsApp list paged by keyset (api/lib/page.ts): `first` when the
 * page shown is not the first, `next` when the answer had a next_cursor. Plain links: no JavaScript needed.
 */
import { Link } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { Button } from "~/components/ui/button";

export function KeysetPager({ first, next }: { first: string | null; next: string | null }) {
  const { t } = useTranslation(["whatsapp", "common"]);
  if (!first && !next) return null;
  return (
    <nav className="flex justify-between gap-2" aria-label={t("common:pager.label")}>
      {first ? (
        <Button asChild variant="outline" size="sm">
          <Link to={first}>{t("pager.first")}</Link>
        </Button>
      ) : (
        <span />
      )}
      {next ? (
        <Button asChild variant="outline" size="sm">
          <Link to={next}>{t("pager.next")}</Link>
        </Button>
      ) : null}
    </nav>
  );
}
