import { RemixBrowser } from "@remix-run/react";
import { startTransition, StrictMode } from "react";
import { hydrateRoot } from "react-dom/client";
import { LiteI18n, type Store } from "./lib/i18n-lite";
import { I18nProvider } from "./lib/react-i18n";

declare global {
  interface Window {
    __remixContext: { state: { loaderData: { root?: { lng: string; i18n: Record<string, Record<string, unknown>> } } } };
  }
}

// The root loader sends the current language's namespaces once, inside Remix's own data.
const root = window.__remixContext.state.loaderData.root;
const lng = root?.lng ?? "pt-BR";
const i18n = new LiteI18n(lng, { [lng]: (root?.i18n ?? {}) as Store[string] });

startTransition(() => {
  hydrateRoot(
    document,
    <I18nProvider i18n={i18n}>
      <StrictMode>
        <RemixBrowser />
      </StrictMode>
    </I18nProvider>,
  );
});
