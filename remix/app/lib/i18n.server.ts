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

/** Only the current language's web namespaces travel to the browser. */
export function clientResources(lng: Lng) {
  const all = resources[lng] ?? resources[fallbackLng];
  return Object.fromEntries(webNamespaces.map((ns) => [ns, all[ns] ?? {}]));
}

export function allResources(): Resource {
  return resources as Resource;
}
