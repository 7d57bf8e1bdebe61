import { vitePlugin as remix } from "@remix-run/dev";
import tailwindcss from "@tailwindcss/vite";
import { defineConfig } from "vite";
import tsconfigPaths from "vite-tsconfig-paths";
import { fileURLToPath } from "node:url";
import { dirname, resolve } from "node:path";

const here = dirname(fileURLToPath(import.meta.url));

export default defineConfig({
  root: here,
  publicDir: resolve(here, "..", "public"),
  plugins: [
    tailwindcss(),
    remix({
      appDirectory: resolve(here, "app"),
      buildDirectory: resolve(here, "build"),
      ignoredRouteFiles: ["**/*.test.*", "**/*.css"],
      future: { v3_fetcherPersist: true, v3_relativeSplatPath: true, v3_throwAbortReason: true, v3_lazyRouteDiscovery: true, v3_singleFetch: false },
    }),
    tsconfigPaths({ root: resolve(here, "..") }),
  ],
  server: { fs: { allow: [resolve(here, "..")] } },
  build: { target: "es2022" },
  ssr: { target: "node" },
});
