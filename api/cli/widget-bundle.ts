/**
 * The widget's bundler step, run by Bun for api/cli/widget-build.mjs (`bun api/cli/widget-bundle.ts
 * <entry> <out>`): minified, for browsers, one IIFE. The widget's locales (public/locales/<lang>/widget.json)
 * go in without their `page` part, which only the hosted /webchat and /live/simulator pages use
 * (through i18next): about 1 KB gzip of the 15 KB budget (tests/integration/widget.test.ts).
 * Beside the script it writes the same styles as a file, <out>.css (public/widget.css): the
 * fallback of browsers without constructable stylesheets (Safari before 16.4), which load it with
 * a <link> in the shadow root (ADR 018). The script asks for it with its content hash (?v=, the
 * WIDGET_CSS_V constant), so a new build is a new URL under the same five-minute caching.
 */
import { CSS } from "../../public-src/widget/style";

const [entry, out] = process.argv.slice(2);
const cssVersion = new Bun.CryptoHasher("sha256").update(CSS).digest("hex").slice(0, 12);
const result = await Bun.build({
  entrypoints: [entry],
  minify: true,
  target: "browser",
  format: "iife",
  define: { WIDGET_CSS_V: JSON.stringify(cssVersion) },
  plugins: [
    {
      name: "widget-locales",
      setup(build) {
        build.onLoad({ filter: /[\\/]widget\.json$/ }, async (file) => {
          const { page: _page, ...strings } = JSON.parse(await Bun.file(file.path).text());
          return { contents: `export default ${JSON.stringify(strings)};`, loader: "js" };
        });
      },
    },
  ],
});
if (!result.success) {
  for (const log of result.logs) console.error(log);
  process.exit(1);
}
await Bun.write(out.replace(/\.js$/, "") + ".css", CSS);
await Bun.write(out, await result.outputs[0].text());
