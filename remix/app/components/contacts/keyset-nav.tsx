import { Link } from "@remix-run/react";
import { useTranslation } from "~/lib/react-i18n";
import { Button } from "~/components/ui/button";

/** Keyset paging: "first page" once past it, "next page" while there is more (plain links). */
export function KeysetNav({ path, params, next }: { path: string; params: URLSearchParams; next: string | null }) {
  const { t } = useTranslation("contacts");
  const first = new URLSearchParams(params);
  first.delete("after");
  const firstHref = first.toString() ? `${path}?${first}` : path;
  const nextParams = new URLSearchParams(first);
  if (next) nextParams.set("after", next);
  if (!params.get("after") && !next) return null;
  return (
    <nav aria-label={t("list.pages")} className="flex flex-wrap justify-end gap-2">
      {params.get("after") ? (
        <Button asChild variant="outline" size="sm">
          <Link to={firstHref}>{t("list.firstPage")}</Link>
        </Button>
      ) : null}
      {next ? (
        <Button asChild variant="outline" size="sm">
          <Link to={`${path}?${nextParams}`} rel="next">
            {t("list.nextPage")}
          </Link>
        </Button>
      ) : null}
    </nav>
  );
}
