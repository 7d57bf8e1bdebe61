/**
 * /api/docs: the API reference page (Swagger UI), served entirely from our own origin. The plugin's
 * own page loads its script and styles from a public CDN, so it was blank offline and on networks
 * that block CDNs (issue 12 item 15). The UI comes from the swagger-ui-dist package, served from
 * node_modules; the page has no inline script, so its policy allows scripts from 'self' only.
 */
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { Elysia, t } from "elysia";
import { AppError } from "../lib/errors";

/** Where the page is, and the OpenAPI document it shows (both under the app's /api prefix). */
export const DOCS_PATH = "/docs";
export const DOCS_JSON_PATH = "/docs/json";
const ASSETS = "/api/docs/assets";

/** The page's starter: what swagger-initializer.js does, pointed at our document, no online validator badge. */
const INIT_JS = `window.ui = SwaggerUIBundle({
  url: "/api${DOCS_JSON_PATH}",
  dom_id: "#swagger-ui",
  deepLinking: true,
  validatorUrl: null,
  persistAuthorization: false
});
`;

const PAGE = `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8" />
  <meta name="viewport" content="width=device-width, initial-scale=1" />
  <title>Mensageria API</title>
  <link rel="icon" type="image/png" href="${ASSETS}/favicon-32x32.png" />
  <link rel="stylesheet" href="${ASSETS}/swagger-ui.css" />
</head>
<body>
  <div id="swagger-ui"></div>
  <script src="${ASSETS}/swagger-ui-bundle.js"></script>
  <script src="${ASSETS}/init.js"></script>
</body>
</html>
`;

/** Swagger UI sets styles inline and shows data: images; nothing else leaves our origin. */
const PAGE_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'self'",
].join("; ");

const TYPES: Record<string, string> = { js: "text/javascript; charset=utf-8", css: "text/css; charset=utf-8", png: "image/png" };
/** The files the page loads; nothing else of the package is reachable. */
const FILES = ["swagger-ui-bundle.js", "swagger-ui.css", "favicon-32x32.png"] as const;

let dist: string | undefined;
function asset(name: string): BodyInit | undefined {
  if (name === "init.js") return INIT_JS;
  if (!(FILES as readonly string[]).includes(name)) return undefined;
  dist ??= dirname(createRequire(import.meta.url).resolve("swagger-ui-dist/package.json"));
  return Bun.file(join(dist, name));
}

export const docsRoutes = new Elysia({ name: "docs" })
  .get(
    DOCS_PATH,
    () =>
      new Response(PAGE, {
        headers: { "Content-Type": "text/html; charset=utf-8", "Content-Security-Policy": PAGE_POLICY, "X-Content-Type-Options": "nosniff", "Cache-Control": "no-cache" },
      }),
    { detail: { hide: true } },
  )
  .get(
    `${DOCS_PATH}/assets/:file`,
    ({ params }) => {
      const body = asset(params.file);
      if (!body) throw new AppError("NOT_FOUND");
      const type = TYPES[params.file.split(".").pop() ?? ""];
      return new Response(body, { headers: { "Content-Type": type, "X-Content-Type-Options": "nosniff", "Cache-Control": "public, max-age=3600" } });
    },
    { params: t.Object({ file: t.String() }), detail: { hide: true } },
  );
