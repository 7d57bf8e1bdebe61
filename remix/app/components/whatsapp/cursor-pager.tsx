/** A keyset list's pager (the WhatsApp lists): back to the newest page, and the next page by its cursor; plain links, no JavaScript needed. */
import { Link } from "@remix-run/react";
import { useTranslation } from "~/lib/react-i18n";
import { Button } from "~/components/ui/button";

/** `cursor`: the page shown (empty: the first); `next`: the next page's cursor (null: the last page); `href`: the list's URL with a cursor or without. */
export function CursorPager({ cursor, next, href }: { cursor: string; next: string | null; href: (cursor?: string) => string }) {
  const { t } = useTranslation(["whatsapp", "common"]);
  if (!cursor && !next) return null;
  return (
    <nav className="flex justify-between gap-2" aria-label={t("common:pager.label")}>
      {cursor ? (
        <Button asChild variant="outline" size="sm">
          <Link to={href()}>{t("whatsapp:pager.first")}</Link>
        </Button>
      ) : (
        <span />
      )}
      {next ? (
        <Button asChild variant="outline" size="sm">
          <Link to={href(next)}>{t("whatsapp:pager.next")}</Link>
        </Button>
      ) : null}
    </nav>
  );
}
