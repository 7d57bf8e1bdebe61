/**
 * Issue 19: each page ships only the translation namespaces its routes use (ADR 049), and no
 * page shows a raw key for it. The server renders with the same namespaces the browser receives
 * and a key of a namespace it lacks shows as "ns:key" (appendNamespaceToMissingKey), so walking
 * every route of the spec as the demo owner, the staff and a guest finds any gap in the HTML.
 */
import { describe, expect, it } from "vitest";
import { DOCUMENT_PATHS } from "../../remix/app/lib/hydration";
import { webNamespaces } from "../../remix/app/lib/i18n";
import { serverErrorNamespaces } from "../../remix/page-namespaces";
import { resolve } from "node:path";
import { APP_ROUTES, GUEST_ROUTES } from "../support/spec-routes";
import { signIn, WebClient } from "../support/web";

const RAW_KEY = new RegExp(`(?<![\\w/.-])(?:${webNamespaces.join("|")}):[A-Za-z_][\\w.]*`, "g");

/** The text a person reads (scripts, styles and tags left out; attributes a screen reader reads kept). */
function visibleText(html: string) {
  const attrs = [...html.matchAll(/\s(?:aria-label|title|placeholder|alt)="([^"]*)"/g)].map((m) => m[1]);
  const text = html
    .replace(/<script[\s\S]*?<\/script>/g, " ")
    .replace(/<style[\s\S]*?<\/style>/g, " ")
    .replace(/<[^>]+>/g, " ");
  return `${text} ${attrs.join(" ")}`;
}

/**
 * The namespaces inlined in the page (the root loader's data in Remix's context script); null for
 * a page served without React (ADR 051), which inlines no data at all.
 */
function inlinedNamespaces(html: string): string[] | null {
  const m = html.match(/window\.__remixContext = (\{[\s\S]*?\});(?=__remixContext|window\.|<\/script>)/);
  if (!m) return null;
  const ctx = JSON.parse(m[1]) as { state: { loaderData: { root?: { i18n?: Record<string, unknown> } } } };
  return Object.keys(ctx.state.loaderData.root?.i18n ?? {});
}

async function pool<T>(items: T[], limit: number, fn: (item: T) => Promise<void>) {
  const queue = [...items];
  await Promise.all(
    Array.from({ length: limit }, async () => {
      for (let item = queue.shift(); item !== undefined; item = queue.shift()) await fn(item);
    }),
  );
}

async function walk(c: WebClient, paths: string[]) {
  const raw: string[] = [];
  const sizes: Array<[string, number, string[] | null]> = [];
  await pool(paths, 4, async (p) => {
    const res = await c.get(p);
    if (res.status !== 200 || !(res.headers.get("Content-Type") ?? "").includes("text/html")) {
      await res.body?.cancel();
      return;
    }
    const html = await res.text();
    for (const key of visibleText(html).match(RAW_KEY) ?? []) raw.push(`${p}: ${key}`);
    sizes.push([p, html.length, inlinedNamespaces(html)]);
  });
  return { raw, sizes };
}

describe("translations per page (issue 19, ADR 049)", () => {
  // It walks every route of the spec (about 140, growing with each screen built): beside three other
  // files on two cores that took more than the default 60 s in a CI rehearsal, so its own bound.
  it("no page of the spec shows a raw key, signed in as the owner", async () => {
    const c = await signIn("owner@demo.example");
    const { raw, sizes } = await walk(
      c,
      APP_ROUTES.filter((p) => !p.startsWith("/admin")),
    );
    expect(sizes.length).toBeGreaterThan(40);
    expect(raw).toEqual([]);
    // Fewer namespaces than all of them on every page, the three always there.
    for (const [p, , ns] of sizes) {
      if (ns === null) {
        expect(DOCUMENT_PATHS.has(p), `${p} has no Remix context script`).toBe(true);
        continue;
      }
      expect(ns, p).toEqual(expect.arrayContaining(["common", "errors", "validation"]));
      expect(ns.length, p).toBeLessThan(webNamespaces.length);
    }
  }, 240_000);

  it("nor in the staff area", async () => {
    const c = await signIn("staff@demo.example");
    const { raw, sizes } = await walk(
      c,
      APP_ROUTES.filter((p) => p.startsWith("/admin")),
    );
    expect(sizes.length).toBeGreaterThan(5);
    expect(raw).toEqual([]);
  });

  it("nor a guest's pages, in the four languages; /register carries only its own namespaces (and the server's refusals'), /login and /sms/send none (served without React)", async () => {
    const SERVER_ERRORS = serverErrorNamespaces(resolve(__dirname, "..", "..", "api"), webNamespaces);
    expect(SERVER_ERRORS).toContain("seats");
    for (const lang of ["pt-BR", "en", "es", "zh"]) {
      const c = new WebClient(undefined, { "Accept-Language": lang });
      const { raw, sizes } = await walk(c, GUEST_ROUTES);
      expect(raw, lang).toEqual([]);
      expect(sizes.find(([p]) => p === "/login")?.[2], lang).toBeNull();
      const register = sizes.find(([p]) => p === "/register")!;
      // Its own, and (a page with a form) the areas whose refusals the server may answer with.
      expect((register[2] ?? []).filter((n: string) => !SERVER_ERRORS.includes(n)).sort()).toEqual(["auth", "common", "errors", "validation"]);
    }
    const owner = await signIn("owner@demo.example");
    expect(inlinedNamespaces((await owner.page("/sms/send")).html)).toBeNull();
    const history = inlinedNamespaces((await owner.page("/sms/history")).html);
    expect(history).toContain("sms");
    expect(history).not.toContain("liveReports");
  });
});
