/** "More" for a keyset list (ADR 064's admin lists): the same filters and the next cursor, a plain link. */
import { Link } from "@remix-run/react";
import { useTranslation } from "~/lib/react-i18n";

export function MoreLink({ filters, next }: { filters: Record<string, string>; next: string | null }) {
  const { t } = useTranslation("adminCatalogue");
  if (!next) return null;
  const params = new URLSearchParams({ ...Object.fromEntries(Object.entries(filters).filter(([, v]) => v)), cursor: next });
  return (
    <Link to={`?${params.toString()}`} rel="next" className="mt-4 inline-block text-sm underline">
      {t("more")}
    </Link>
  );
}

/** The filters a list screen read from its URL: known keys only, trimmed, short. */
export function filtersOf(url: string, keys: string[]): Record<string, string> {
  const params = new URL(url).searchParams;
  return Object.fromEntries(keys.map((k) => [k, (params.get(k) ?? "").trim().slice(0, 100)]));
}
