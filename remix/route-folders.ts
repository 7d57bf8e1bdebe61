/**
 * The web app's route files, one folder per product area (ADR 026): remix/app/routes/<area>/<name>,
 * where <name> is Remix's flat-route name (`sms/_app.sms.history.$id.tsx` serves /sms/history/:id).
 * Remix's own convention reads one flat folder, so the files are handed to its flat-routes
 * algorithm as if they sat in routes/, and each entry then points at the real file: the route
 * tree (ids, URLs, layouts, index routes) is the one the same files would give in one folder.
 * vite.config.ts passes `routeFolders` to the Remix plugin's `routes` option.
 */
import { readdirSync } from "node:fs";
import { join, resolve } from "node:path";
import type { UNSAFE_RouteManifest as RouteManifest } from "@remix-run/dev";
// The algorithm over a list of files (the public `UNSAFE_flatRoutes` only reads a directory).
// Internal to @remix-run/dev, which package.json pins: route-folders.test.ts compares the result
// with remix/route-tree.json, so an upgrade that changes it fails `npm run check`.
import { flatRoutesUniversal } from "@remix-run/dev/dist/config/flat-routes.js";

const ROUTE_MODULE = /\.(tsx|ts|jsx|js)$/;

function isRouteModule(name: string) {
  return ROUTE_MODULE.test(name) && !name.startsWith(".") && !name.includes(".test.");
}

/**
 * The route files, relative to routes/: `<name>` for the few at the top (see `areaOf`) and
 * `<area>/<name>` for the rest. Folders are one level deep, so a file's folder is its area.
 */
export function routeFiles(appDirectory: string): string[] {
  const routesDir = join(appDirectory, "routes");
  return readdirSync(routesDir, { withFileTypes: true }).flatMap((entry) => {
    if (!entry.isDirectory()) return isRouteModule(entry.name) ? [entry.name] : [];
    return readdirSync(join(routesDir, entry.name), { withFileTypes: true }).flatMap((inner) => {
      if (inner.isDirectory()) throw new Error(`routes/${entry.name}/${inner.name}: route folders are one level deep (routes/<area>/<flat route name>)`);
      return isRouteModule(inner.name) ? [`${entry.name}/${inner.name}`] : [];
    });
  });
}

/** The route manifest for the Remix plugin: Remix's flat routes over the files of every area folder. */
export function routeFolders(appDirectory: string): RouteManifest {
  const app = resolve(appDirectory);
  const realFile = new Map<string, string>(); // "routes/<name>" (as if flat) -> "routes/<area>/<name>"
  for (const file of routeFiles(app)) {
    const flat = `routes/${file.slice(file.lastIndexOf("/") + 1)}`;
    const other = realFile.get(flat);
    if (other) throw new Error(`${other} and routes/${file} are the same route: a route file's name is unique across the area folders`);
    realFile.set(flat, `routes/${file}`);
  }
  const manifest = flatRoutesUniversal(
    app,
    [...realFile.keys()].map((flat) => join(app, flat)),
  );
  for (const route of Object.values(manifest)) route.file = realFile.get(route.file) ?? route.file;
  return manifest;
}

/**
 * URL segments served by an area whose folder has another name: live chat (spec section 2's
 * "live/omni" and "chat" lines), the signed-in account's own pages (its "Logged-in area") and the
 * pages used without signing in (its "Public (guest)": the `_auth` layout's pages and the sign-in
 * round trips). Any other segment is its own folder: sms/, contacts/, admin/, and mail/ when it comes.
 */
const GROUPED: Record<string, string> = {
  chat: "live",
  widget: "live",
  webchat: "live",
  holidays: "live",
  "opening-hours": "live",
  responses: "live",
  tabulations: "live",
  accounts: "account",
  notifications: "account",
  settings: "account",
  user: "account",
  departments: "account",
  webhooks: "account",
  channels: "account",
  // Billing (issue 18): the invoices, the top-up, and what is to come (/billing, /usage, /plans).
  invoices: "billing",
  invoice: "billing",
  "new-invoice": "billing",
  plans: "billing",
  usage: "billing",
  // /customer/products: the account's products (ADR 048).
  customer: "billing",
  _auth: "guest",
  auth: "guest",
  callback: "guest",
  logout: "guest",
  unsubscribe: "guest",
};

/** Routes that serve every area stay at the top of routes/: the signed-in shell `_app`, "/", not-found `$`, /403 and the language switch. */
const TOP = new Set(["", "_index", "$", "403", "locale"]);

/**
 * The folder a route file belongs in ("" for the top of routes/), from the first segment of the
 * URL it serves: `_app.sms.history.$id.tsx` → "sms", `_app.live_.configs.system.tsx` → "live",
 * `_auth.login.tsx` → "guest" (the `_auth` layout is the guest pages' shell).
 */
export function areaOf(fileName: string): string {
  const segments = fileName.replace(ROUTE_MODULE, "").split(".");
  const [first = ""] = segments[0] === "_app" ? segments.slice(1) : segments;
  const segment = first.replace(/_$/, ""); // `live_` leaves the live layout, same URL segment
  if (TOP.has(segment)) return "";
  return GROUPED[segment] ?? segment;
}
