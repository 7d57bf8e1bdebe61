import { RemixBrowser } from "@remix-run/react";
import i18next from "i18next";
import { startTransition, StrictMode } from "react";
import { hydrateRoot } from "react-dom/client";
import { I18nextProvider, initReactI18next } from "react-i18next";
import { i18nConfig } from "./lib/i18n";

declare global {
  interface Window {
    __remixContext: { state: { loaderData: { root?: { lng: string; i18n: Record<string, Record<string, unknown>> } } } };
  }
}

async function hydrate() {
  // The root loader sends the current language's namespaces once, inside Remix's own data.
  const root = window.__remixContext.state.loaderData.root;
  const lng = root?.lng ?? "pt-BR";
  const resources = root?.i18n ?? {};
  await i18next.use(initReactI18next).init({ ...i18nConfig, lng, ns: Object.keys(resources), resources: { [lng]: resources } });
  startTransition(() => {
    hydrateRoot(
      document,
      <I18nextProvider i18n={i18next}>
        <StrictMode>
          <RemixBrowser />
        </StrictMode>
      </I18nextProvider>,
    );
  });
}

void hydrate();
