import { useMatches } from "@remix-run/react";
import { useTranslation } from "~/lib/react-i18n";
import { Breadcrumbs } from "~/components/ui/breadcrumbs";

/** A route declares `handle = { crumb: "ns:key" }` (or a function of its data); breadcrumbs and title follow. */
export type Crumb = string | ((data: unknown) => { key: string; params?: Record<string, unknown> } | string);
/** `title`: a page's own title from its data (pages outside the shell, without breadcrumbs). */
export type RouteHandle = { crumb?: Crumb; title?: (data: unknown) => string | undefined };

/** The deepest route's own title (`handle.title`), if it has one. */
export function usePageTitle(): string | undefined {
  const matches = useMatches();
  for (const m of [...matches].reverse()) {
    const title = (m.handle as RouteHandle | undefined)?.title;
    if (title) return title(m.data);
  }
  return undefined;
}

export function useCrumbs() {
  const matches = useMatches();
  const { t } = useTranslation();
  return matches
    .filter((m) => (m.handle as RouteHandle | undefined)?.crumb)
    .map((m) => {
      const c = (m.handle as RouteHandle).crumb!;
      const v = typeof c === "function" ? c(m.data) : c;
      const label = typeof v === "string" ? (t(v) as string) : (t(v.key, v.params ?? {}) as string);
      return { label, href: m.pathname };
    });
}

export function PageHeader({ actions, description }: { actions?: React.ReactNode; description?: React.ReactNode }) {
  const crumbs = useCrumbs();
  const { t } = useTranslation();
  const title = crumbs.at(-1)?.label ?? "";
  return (
    <header className="mb-6 flex flex-wrap items-end justify-between gap-4">
      <div className="space-y-1">
        {crumbs.length > 1 ? <Breadcrumbs items={crumbs.map((c, i) => (i < crumbs.length - 1 ? c : { label: c.label }))} label={t("shell.breadcrumbs")} /> : null}
        <h1 className="text-2xl font-semibold tracking-tight">{title}</h1>
        {description ? <p className="text-sm text-muted-foreground">{description}</p> : null}
      </div>
      {actions ? <div className="flex flex-wrap items-center gap-2">{actions}</div> : null}
    </header>
  );
}
