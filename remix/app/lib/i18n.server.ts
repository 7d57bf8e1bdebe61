import { RemixI18Next } from "remix-i18next/server";
import { createCookie } from "@remix-run/node";
import type { Resource } from "i18next";
import { User } from "../../../models";
import { loadResources } from "~api/lib/i18n";
import { fallbackLng, i18nConfig, supportedLngs, webNamespaces, type Lng } from "./i18n";
import { getSession } from "./session.server";

export const localeCookie = createCookie("lng", { path: "/", sameSite: "lax", httpOnly: true, maxAge: 60 * 60 * 24 * 365 });

const resources = Object.fromEntries(supportedLngs.map((l) => [l, loadResources(l)])) as Record<Lng, Record<string, Record<string, unknown>>>;

/** Locale order: the signed-in person's saved language, the lng cookie, Accept-Language, pt-BR. */
export const i18next = new RemixI18Next({
  detection: {
    supportedLanguages: [...supportedLngs],
    fallbackLanguage: fallbackLng,
    cookie: localeCookie,
    order: ["custom", "header"],
    async findLocale(request) {
      const session = await getSession(request);
      const userId = session.get("userId");
      if (userId) {
        const u = await User.findByPk(userId, { attributes: ["locale"] });
        if (u) return u.locale;
      }
      const cookie = await localeCookie.parse(request.headers.get("Cookie"));
      if (typeof cookie === "string" && (supportedLngs as readonly string[]).includes(cookie)) return cookie;
      return null;
    },
  },
  i18next: { supportedLngs: i18nConfig.supportedLngs, fallbackLng, defaultNS: i18nConfig.defaultNS, interpolation: i18nConfig.interpolation, resources: resources as Resource },
});

declare module "@remix-run/node" {
  interface AppLoadContext {
    /** The namespaces the page at this path uses (remix/page-namespaces.ts, given by remix/web-server.ts). */
    pageNamespaces?: (pathname: string) => string[];
    /** The URL of the built enhancement script with its content hash (remix/web-server.ts, ADR 051). */
    enhanceScript?: string;
  }
}

/** The namespaces of keys such as "sms:sent" (a toast's title written by an action). */
export function namespacesOfKeys(keys: Array<string | null | undefined>): string[] {
  return keys.flatMap((k) => {
    const ns = k?.includes(":") ? k.split(":")[0] : null;
    return ns && (webNamespaces as readonly string[]).includes(ns) ? [ns] : [];
  });
}

/**
 * Only the current language's namespaces that this page uses travel to the browser (ADR 049):
 * `namespaces` from the matched routes' built JavaScript; all web namespaces when unknown.
 */
export function clientResources(lng: Lng, namespaces: readonly string[] = webNamespaces) {
  const all = resources[lng] ?? resources[fallbackLng];
  const wanted = new Set(namespaces.filter((ns) => (webNamespaces as readonly string[]).includes(ns)));
  return Object.fromEntries(webNamespaces.filter((ns) => wanted.has(ns)).map((ns) => [ns, all[ns] ?? {}]));
}

/** The server render's resources: the same namespaces the browser gets, so both show the same text. */
export function renderResources(lng: Lng, namespaces: readonly string[] | undefined): Resource {
  if (!namespaces) return resources as Resource;
  const all = resources[lng] ?? resources[fallbackLng];
  return { [lng]: Object.fromEntries(namespaces.map((ns) => [ns, all[ns] ?? {}])) } as Resource;
}

export function allResources(): Resource {
  return resources as Resource;
}
