import type { LinksFunction, LoaderFunctionArgs } from "@remix-run/node";
import type { ShouldRevalidateFunction } from "@remix-run/react";
import { json } from "@remix-run/node";
import { isRouteErrorResponse, Link, Links, Meta, Outlet, Scripts, ScrollRestoration, useLoaderData, useRouteError, useRouteLoaderData } from "@remix-run/react";
import { useChangeLanguage, useTranslation } from "~/lib/react-i18n";
import { publicEnv } from "~api/lib/env";
import { brandForHost } from "~api/whitelabel/services";
import { ToastProvider } from "~/components/ui/toast";
import { useCrumbs, usePageTitle } from "~/components/shell/page-header";
import { Button } from "~/components/ui/button";
import { guard } from "~/lib/auth.server";
import { csrfToken } from "~/lib/csrf.server";
import type { Lng } from "~/lib/i18n";
import { clientResources, i18next, namespacesOfKeys } from "~/lib/i18n.server";
import { DOCUMENT_PATHS, useHydrates } from "~/lib/hydration";
import { useNonce } from "~/lib/nonce";
import { commitSession, getSession } from "~/lib/session.server";
import styles from "~/styles/app.css?url";

export const links: LinksFunction = () => [
  { rel: "stylesheet", href: styles },
  { rel: "icon", href: "/favicon.svg", type: "image/svg+xml" },
];

export async function loader({ request, context }: LoaderFunctionArgs) {
  await guard(request);
  const lng = (await i18next.getLocale(request)) as Lng;
  const brand = await brandForHost(request.headers.get("Host"));
  const session = await getSession(request);
  const toast = session.get("toast") ?? null;
  const headers = new Headers();
  if (toast) headers.append("Set-Cookie", await commitSession(session));
  // Only the namespaces of this page's routes (and of a toast an action left), ADR 049.
  const page = context.pageNamespaces?.(new URL(request.url).pathname);
  const namespaces = page ? [...page, ...namespacesOfKeys([toast?.title, toast?.description])] : undefined;
  // The enhancement script of the pages served without React (ADR 051), with its content hash.
  const enhance = context.enhanceScript ?? "/enhance.js";
  return json({ lng, brand, csrf: csrfToken(request), toast, env: publicEnv(), i18n: clientResources(lng, namespaces), enhance }, { headers });
}

/**
 * The root data carries the page's translations: a navigation to another path asks for them
 * again (the App below adds the bundles the browser does not have yet before the page renders).
 */
export const shouldRevalidate: ShouldRevalidateFunction = ({ currentUrl, nextUrl, defaultShouldRevalidate }) =>
  !DOCUMENT_PATHS.has(nextUrl.pathname) && (defaultShouldRevalidate || currentUrl.pathname !== nextUrl.pathname);

export type RootData = typeof loader;

export function useRootData() {
  return useRouteLoaderData<RootData>("root");
}

/**
 * The page's one <title>: the deepest route's own `handle.title` (a page outside the shell, such as
 * /webchat or /live/simulator), else its last breadcrumb, then the brand. Routes export no `meta`
 * title: a route's `meta` replaces its parents' (the viewport went missing that way) and its title
 * came on top of this one.
 */
function Title({ brand }: { brand?: string }) {
  const crumbs = useCrumbs();
  const own = usePageTitle();
  const { t } = useTranslation();
  const name = brand ?? (t("appName") as string);
  const page = own ?? crumbs.at(-1)?.label;
  return <title>{page ? `${page} · ${name}` : name}</title>;
}

function Document({ children, lng, brandColor, brandName }: { children: React.ReactNode; lng: string; brandColor?: string; brandName?: string }) {
  const nonce = useNonce();
  const hydrates = useHydrates();
  const enhance = useRouteLoaderData<RootData>("root")?.enhance;
  return (
    <html lang={lng} style={brandColor ? ({ "--primary": brandColor, "--primary-foreground": "#ffffff" } as React.CSSProperties) : undefined}>
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <Meta />
        <Title brand={brandName} />
        <Links />
      </head>
      <body className="min-h-screen bg-background text-foreground antialiased">
        {children}
        {hydrates ? (
          <>
            <ScrollRestoration nonce={nonce} />
            <Scripts nonce={nonce} />
          </>
        ) : enhance ? (
          <script type="module" src={enhance} nonce={nonce} />
        ) : null}
      </body>
    </html>
  );
}

export default function App() {
  const data = useLoaderData<typeof loader>();
  const { t, i18n } = useTranslation();
  // A language switch during client navigation brings the new language's namespaces with it.
  for (const [ns, bundle] of Object.entries(data.i18n)) {
    if (!i18n.hasResourceBundle(data.lng, ns)) i18n.addResourceBundle(data.lng, ns, bundle);
  }
  useChangeLanguage(data.lng);
  const initial = data.toast
    ? [
        {
          id: `flash-${data.toast.title}`,
          type: data.toast.type,
          title: t(data.toast.title, data.toast.params ?? {}) as string,
          description: data.toast.description ? (t(data.toast.description) as string) : undefined,
          persistent: data.toast.persistent,
        },
      ]
    : undefined;
  return (
    <Document lng={data.lng} brandColor={data.brand?.color} brandName={data.brand?.name}>
      <ToastProvider initialToasts={initial} closeLabel={t("actions.close")}>
        <Outlet />
      </ToastProvider>
    </Document>
  );
}

/** Not-found and unexpected-error screens (translated when the root data is there). */
export function ErrorBoundary() {
  const error = useRouteError();
  const data = useRouteLoaderData<RootData>("root");
  const { t } = useTranslation();
  const status = isRouteErrorResponse(error) ? error.status : 500;
  const notFound = status === 404;
  const forbidden = status === 403;
  if (status >= 500) console.error(error);
  return (
    <Document lng={data?.lng ?? "pt-BR"} brandColor={data?.brand?.color}>
      <main className="mx-auto flex min-h-screen max-w-lg flex-col items-center justify-center gap-4 p-6 text-center">
        <p className="text-6xl font-bold text-primary">{status}</p>
        <h1 className="text-2xl font-semibold">
          {notFound ? t("notFound.title") : forbidden ? t("forbidden.title") : status < 500 ? t("errors:AN_ERROR_OCCURRED") : t("errors:INTERNAL")}
        </h1>
        <p className="text-muted-foreground">{notFound ? t("notFound.body") : forbidden ? t("forbidden.body") : t("errors:UNKNOWN")}</p>
        <Button asChild>
          <Link to="/">{t("notFound.home")}</Link>
        </Button>
      </main>
    </Document>
  );
}
