/** Frame of the public (guest) pages: the brand (whitelabel per host) and a centred card. */
import { Link, Outlet, useRouteLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import type { RootData } from "~/root";
import { LanguageLinks } from "~/components/forms/language-links";

export default function AuthLayout() {
  const root = useRouteLoaderData<RootData>("root");
  const { t } = useTranslation();
  const brand = root?.brand?.name ?? t("appName");
  return (
    <div className="flex min-h-screen flex-col items-center justify-center bg-muted/40 px-4 py-10">
      <Link to="/login" className="mb-6 flex items-center gap-2 text-2xl font-semibold text-primary" data-testid="brand">
        <span className="inline-block size-7 rounded-md bg-primary" aria-hidden /> {brand}
      </Link>
      <p className="mb-6 max-w-md text-center text-sm text-muted-foreground">{t("tagline")}</p>
      <main className="w-full max-w-md rounded-xl border bg-card p-6 shadow-sm sm:p-8">
        <Outlet />
      </main>
      <LanguageLinks />
    </div>
  );
}
