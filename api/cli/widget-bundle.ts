/**
 * The widget's bundler step, run by Bun for api/cli/widget-build.mjs (`bun api/cli/widget-bundle.ts
 * <entry> <out>`): minified, for browsers, one IIFE. The widget's locales (public/locales/<lang>/widget.json)
 * go in without their `page` part, which only the hosted /webchat and /live/simulator pages use
 * (through i18next): about 1 KB gzip of the 15 KB budget (tests/integration/widget.test.ts).
 */
export {};

const [entry, out] = process.argv.slice(2);
const result = await Bun.build({
  entrypoints: [entry],
  minify: true,
  target: "browser",
  format: "iife",
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
await Bun.write(out, await result.outputs[0].text());
