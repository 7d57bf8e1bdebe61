import { vitePlugin as remix } from "@remix-run/dev";
import tailwindcss from "@tailwindcss/vite";
import { defineConfig, type Plugin } from "vite";
import tsconfigPaths from "vite-tsconfig-paths";
import { fileURLToPath } from "node:url";
import { dirname, resolve } from "node:path";
import { routeFolders } from "./route-folders";

const here = dirname(fileURLToPath(import.meta.url));
const appDirectory = resolve(here, "app");

/**
 * In the browser, libphonenumber's "min" metadata instead of "max" (issue 19's JavaScript budget:
 * 29 KB gzip instead of 48). Formatting is the same; the browser's check of a number is by length
 * and leading digits only, and the server (SSR and actions, "max") has the final word.
 */
function phoneMinInBrowser(): Plugin {
  return {
    name: "phone-metadata-min-in-browser",
    enforce: "pre",
    resolveId(source, importer, options) {
      if (source !== "libphonenumber-js/max" || options?.ssr) return null;
      return this.resolve("libphonenumber-js/min", importer, { ...options, skipSelf: true });
    },
  };
}

export default defineConfig({
  root: here,
  publicDir: resolve(here, "..", "public"),
  plugins: [
    phoneMinInBrowser(),
    tailwindcss(),
    remix({
      appDirectory,
      buildDirectory: resolve(here, "build"),
      // Route files sit in one folder per product area (ADR 026): Remix's own scan, which reads only
      // the top of app/routes/, is off, and routeFolders() lists every route file (tests and CSS left out).
      ignoredRouteFiles: ["**/*"],
      routes: async () => routeFolders(appDirectory),
      future: { v3_fetcherPersist: true, v3_relativeSplatPath: true, v3_throwAbortReason: true, v3_lazyRouteDiscovery: true, v3_singleFetch: false },
    }),
    tsconfigPaths({ root: resolve(here, "..") }),
  ],
  server: { fs: { allow: [resolve(here, "..")] } },
  build: {
    target: "es2022",
    // Building a zod schema has no side effect: a module that exports constants beside its schemas
    // (api/*/schemas.ts) gives the browser its constants without zod; forms load zod and the schema
    // on first use (remix/app/lib/lazy-validate.ts, ADR 052).
    rollupOptions: { treeshake: { manualPureFunctions: ["z"] } },
  },
  ssr: { target: "node" },
});
