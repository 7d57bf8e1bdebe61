/** Frame of the pages used without signing in: the brand (whitelabel per host), the tagline, a centred card, the languages. */
import { Link, useRouteLoaderData } from "@remix-run/react";
import { useTranslation } from "~/lib/react-i18n";
import { LanguageLinks } from "~/components/forms/language-links";
import type { RootData } from "~/root";

/** `wide`: a page with a table (the registrant's mailbox) instead of a form. */
export function GuestFrame({ children, wide = false }: { children: React.ReactNode; wide?: boolean }) {
  const root = useRouteLoaderData<RootData>("root");
  const { t } = useTranslation();
  const brand = root?.brand?.name ?? t("appName");
  return (
    <div className="flex min-h-screen flex-col items-center justify-center bg-muted/40 px-4 py-10">
      <Link to="/login" className="mb-6 flex items-center gap-2 text-2xl font-semibold text-primary" data-testid="brand">
        <span className="inline-block size-7 rounded-md bg-primary" aria-hidden /> {brand}
      </Link>
      <p className="mb-6 max-w-md text-center text-sm text-muted-foreground">{t("tagline")}</p>
      <main className={`w-full rounded-xl border bg-card p-6 shadow-sm sm:p-8 ${wide ? "max-w-5xl" : "max-w-md"}`}>{children}</main>
      <LanguageLinks />
    </div>
  );
}
