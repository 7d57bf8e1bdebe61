import { RemixBrowser } from "@remix-run/react";
import i18next from "i18next";
import { startTransition, StrictMode } from "react";
import { hydrateRoot } from "react-dom/client";
import { I18nextProvider, initReactI18next } from "react-i18next";
import { i18nConfig } from "./lib/i18n";

declare global {
  interface Window {
    __I18N__: { lng: string; resources: Record<string, Record<string, unknown>> };
  }
}

async function hydrate() {
  const { lng, resources } = window.__I18N__;
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
