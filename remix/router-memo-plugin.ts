/**
 * Registers the route-matching memo (remix/router-memo.ts, ADR 073) with Bun's loader. The web
 * server imports this module first, before anything that loads @remix-run/router.
 */
import { readFileSync } from "node:fs";
import { plugin } from "bun";
import { memoizeRouter, ROUTER_CJS } from "./router-memo";

plugin({
  name: "remix-router-memo",
  setup(build) {
    // Synchronous: the router is require()d, and an asynchronous onLoad would make it an async
    // module that require() refuses. The patched CommonJS source is run here and its exports handed
    // over as they are (Bun would load plugin contents as an ES module, with no `exports`).
    build.onLoad({ filter: ROUTER_CJS }, ({ path }) => {
      const module = { exports: {} as Record<string, unknown> };
      new Function("exports", "module", memoizeRouter(readFileSync(path, "utf8")))(module.exports, module);
      return { exports: module.exports, loader: "object" };
    });
  },
});
