/**
 * Issue 19's JavaScript budget, from the build the suite runs on (ADR 049): for every route, the
 * JavaScript a first load of its URL downloads — the client entry and its imports, then each
 * matched route's module and imports from root to the leaf, each file once — measured gzipped
 * (level 9, as the web process serves static files). The table of the heaviest routes is printed
 * on every run, with the distance to the issue's targets (150 KB for the heaviest screen, 60 KB for
 * /login and /sms/send).
 *
 * The targets are NOT met yet (measured 2026-11-29: heaviest 242 KB, /login 165 KB, /sms/send
 * 239 KB; the framework alone — react-dom, Remix's router, i18next, the client entry — is about
 * 105 KB on every page, libphonenumber's full metadata 48 KB and zod 24 KB on form screens). So
 * the test enforces CEILINGS, the sizes of today rounded up: it fails when a change makes a page
 * heavier, and each ceiling is to be lowered toward TARGETS as pages get lighter (ADR 049).
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import zlib from "node:zlib";
import { describe, expect, it } from "vitest";

const client = join(import.meta.dirname, "..", "..", "remix", "build", "client");
const KB = 1024;
/** The targets (reported, not yet enforced). */
const TARGETS = { heaviest: 150 * KB, light: 60 * KB };
/** Enforced: no route heavier than `heaviest`; the two light pages each under their own. */
const CEILINGS = { heaviest: 250 * KB };
const LIGHT: Record<string, number> = { "routes/_auth.login": 170 * KB, "routes/_app.sms.send._index": 245 * KB };

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
    const light = weights.filter((w) => w.id in LIGHT);
    const overTarget = [...weights.filter((w) => w.gzip > TARGETS.heaviest), ...light.filter((w) => w.gzip > TARGETS.light)].length;
    console.info(
      `first-load JavaScript, gzip (heaviest 15, then /login and /sms/send):\n${weights.slice(0, 15).map(row).join("\n")}\n${light.map(row).join("\n")}\n` +
        `issue 19 targets (150 KB heaviest, 60 KB /login and /sms/send): ${overTarget} route(s) over`,
    );
    const over = [
      ...weights.filter((w) => w.gzip > CEILINGS.heaviest).map((w) => `${row(w)} > ${CEILINGS.heaviest / KB} KB`),
      ...light.filter((w) => w.gzip > LIGHT[w.id]).map((w) => `${row(w)} > ${LIGHT[w.id] / KB} KB`),
    ];
    expect(light.length).toBe(Object.keys(LIGHT).length);
    expect(over).toEqual([]);
  });
});
