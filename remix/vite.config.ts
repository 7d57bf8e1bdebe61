import { vitePlugin as remix } from "@remix-run/dev";
import tailwindcss from "@tailwindcss/vite";
import { defineConfig } from "vite";
import tsconfigPaths from "vite-tsconfig-paths";
import { fileURLToPath } from "node:url";
import { dirname, resolve } from "node:path";
import { routeFolders } from "./route-folders";

const here = dirname(fileURLToPath(import.meta.url));
const appDirectory = resolve(here, "app");

export default defineConfig({
  root: here,
  publicDir: resolve(here, "..", "public"),
  plugins: [
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
  build: { target: "es2022" },
  ssr: { target: "node" },
});
