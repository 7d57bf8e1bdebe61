/**
 * Issue 19's JavaScript budget, from the build the suite runs on (ADR 049): for every route, the
 * JavaScript a first load of its URL downloads — the client entry and its imports, then each
 * matched route's module and imports from root to the leaf, each file once — measured gzipped
 * (level 9, as the web process serves static files). The table of the heaviest routes is printed
 * on every run, with the distance to the issue's targets (150 KB for the heaviest screen, 60 KB for
 * /login and /sms/send).
 *
 * /login and /sms/send are served without React (ADR 051) and measured from their live HTML below:
 * 1.6 KB each. The heaviest hydrated page is NOT at its target yet (measured 2026-11-29: 217 KB,
 * after Elysia's TypeBox left the browser bundles (api/lib/page-schema.ts), libphonenumber's
 * "min" metadata replaced "max" in the browser and dates came from Intl's parts instead of
 * date-fns-tz; 82 of 190 routes are still over 150 KB; the framework alone — react-dom, Remix's router,
 * i18next, the client entry — is about 100 KB on every page, and form screens add zod 24 KB and
 * libphonenumber 29 KB for their in-browser checks). So the test enforces CEILINGS, today's size
 * rounded up: it fails when a change makes a page heavier, and the ceiling is to be lowered
 * toward TARGETS as pages get lighter (ADR 049).
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import zlib from "node:zlib";
import { describe, expect, it } from "vitest";
import { signedInCustomer, WebClient } from "../support/web";

const client = join(import.meta.dirname, "..", "..", "remix", "build", "client");
const KB = 1024;
/** The targets (reported, not yet enforced). */
const TARGETS = { heaviest: 150 * KB, light: 60 * KB };
/** Enforced: no route heavier than `heaviest` (the light pages are measured from their HTML, below). */
const CEILINGS = { heaviest: 220 * KB };
/** Served without React (ADR 051): their JavaScript is what their HTML asks for, measured live. */
const LIGHT: Record<string, string> = { "routes/_auth.login": "/login", "routes/_app.sms.send._index": "/sms/send" };

type Entry = { module: string; imports?: string[] };
type Manifest = { entry: Entry; routes: Record<string, Entry & { id: string; parentId?: string }> };

function manifest(): Manifest {
  const file = readdirSync(join(client, "assets")).find((f) => /^manifest-[\w-]+\.js$/.test(f));
  if (!file) throw new Error(`no Remix manifest in ${client}/assets: the suite's set-up builds the web app first`);
  return JSON.parse(
    readFileSync(join(client, "assets", file), "utf8")
      .replace(/^window\.__remixManifest\s*=\s*/, "")
      .replace(/;\s*$/, ""),
  ) as Manifest;
}

const gz = new Map<string, number>();
const gzipSize = (file: string) => {
  let n = gz.get(file);
  if (n === undefined) {
    n = zlib.gzipSync(readFileSync(join(client, file)), { level: 9 }).byteLength;
    gz.set(file, n);
  }
  return n;
};

/** Each route's first-load JavaScript: gzip bytes and the files counted. */
function routeWeights() {
  const m = manifest();
  return Object.values(m.routes).map((route) => {
    const files = new Set<string>([m.entry.module, ...(m.entry.imports ?? [])]);
    for (let r: (typeof m.routes)[string] | undefined = route; r; r = r.parentId ? m.routes[r.parentId] : undefined) {
      files.add(r.module);
      for (const i of r.imports ?? []) files.add(i);
    }
    let gzip = 0;
    for (const f of files) gzip += gzipSize(f);
    return { id: route.id, gzip, files: files.size };
  });
}

describe("JavaScript per page (issue 19, ADR 049)", () => {
  it("no page grows past today's ceilings (issue 19's targets printed beside them)", () => {
    const weights = routeWeights().sort((a, b) => b.gzip - a.gzip);
    const row = (w: (typeof weights)[number]) => `${(w.gzip / KB).toFixed(1).padStart(7)} KB  ${String(w.files).padStart(3)} files  ${w.id}`;
    const hydrated = weights.filter((w) => !(w.id in LIGHT));
    const overTarget = hydrated.filter((w) => w.gzip > TARGETS.heaviest).length;
    console.info(
      `first-load JavaScript, gzip (heaviest 15 of the hydrated pages):\n${hydrated.slice(0, 15).map(row).join("\n")}\n` +
        `issue 19 target (150 KB heaviest): ${overTarget} route(s) over`,
    );
    expect(weights.filter((w) => w.id in LIGHT).length).toBe(Object.keys(LIGHT).length);
    expect(hydrated.filter((w) => w.gzip > CEILINGS.heaviest).map((w) => `${row(w)} > ${CEILINGS.heaviest / KB} KB`)).toEqual([]);
  });
});

/** Every script a page's HTML loads (src and modulepreload, inline bodies too), gzipped as served. */
function scriptsOf(html: string) {
  const files = new Set<string>();
  for (const m of html.matchAll(/<script\b[^>]*\bsrc="([^"]+)"/g)) files.add(new URL(m[1], "http://x").pathname);
  for (const m of html.matchAll(/<link\b[^>]*\brel="modulepreload"[^>]*\bhref="([^"]+)"/g)) files.add(new URL(m[1], "http://x").pathname);
  const inline = [...html.matchAll(/<script\b(?![^>]*\bsrc=)[^>]*>([\s\S]*?)<\/script>/g)].map((m) => m[1]).join("");
  let gzip = inline ? zlib.gzipSync(inline, { level: 9 }).byteLength : 0;
  for (const f of files) gzip += gzipSize(f);
  return { gzip, files: [...files], inline: inline.length };
}

describe("JavaScript of /login and /sms/send, from their HTML (issue 19, ADR 051)", () => {
  it("each loads the enhancement script alone, under 60 KB gzip, and no Remix module", async () => {
    const guest = new WebClient();
    const customer = await signedInCustomer("page-weight");
    const pages = [
      { path: LIGHT["routes/_auth.login"], html: (await guest.page("/login")).html },
      { path: LIGHT["routes/_app.sms.send._index"], html: (await customer.client.page("/sms/send")).html },
    ];
    for (const { path, html } of pages) {
      expect(html, path).toContain("<form");
      const js = scriptsOf(html);
      console.info(`${path}: ${(js.gzip / KB).toFixed(1)} KB gzip of JavaScript (${js.files.join(", ")}; ${js.inline} inline characters)`);
      expect(js.files, path).toEqual(["/enhance.js"]);
      expect(js.inline, path).toBe(0);
      expect(js.gzip, path).toBeLessThanOrEqual(TARGETS.light);
    }
  });
});
