/**
 * Which translation namespaces a page needs (issue 19, ADR 049): read from the built client
 * JavaScript of the routes that match its URL, so no route has to keep a list by hand and a
 * namespace a screen uses cannot be forgotten. A route's chunks (its module and the chunks it
 * imports, from Remix's asset manifest, and what those load with import()) use a namespace when they contain `"ns:` (a prefixed key,
 * a crumb) or pass "ns" as a call's first argument or in its first array (`useTranslation("sms")`,
 * `useTranslation(["live", "common"])`). Always added: common (the default namespace), errors and
 * validation (the messages the server answers with, shown by every form).
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { ServerBuild } from "@remix-run/node";
import { matchRoutes } from "@remix-run/react";

export const ALWAYS = ["common", "errors", "validation"] as const;

const reEscape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** The namespaces a chunk's text uses (`names`: the namespaces that exist). */
export function namespacesInChunk(text: string, names: readonly string[]): string[] {
  // The list of all namespaces (remix/app/lib/i18n.ts) is data, not use.
  const body = text.replace(new RegExp(`\\[${names.map((n) => `"${reEscape(n)}"`).join(",")}\\]`, "g"), "");
  return names.filter((n) => new RegExp(`["'\`]${reEscape(n)}:|\\((?:\\[(?:"[A-Za-z]+",)*)?"${reEscape(n)}"[,)\\]]`).test(body));
}

/**
 * The namespaces whose keys the server answers with in a refused form (`"seats.errors.balance"`,
 * `"sms:errors.x"`): an action may refuse with any area's message (the users screen with the
 * agent seat's), which no chunk of the page names. Read once from the api's sources in `apiDir`.
 */
export function serverErrorNamespaces(apiDir: string, names: readonly string[]): string[] {
  const found = new Set<string>();
  const pattern = new RegExp(`["'\`](${names.map(reEscape).join("|")})[.:]errors\\.`, "g");
  const walk = (dir: string) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      if (e.isDirectory()) walk(join(dir, e.name));
      else if (e.name.endsWith(".ts") && !e.name.endsWith(".test.ts")) for (const m of readFileSync(join(dir, e.name), "utf8").matchAll(pattern)) found.add(m[1]);
    }
  };
  walk(apiDir);
  return [...found].sort();
}

type RouteNode = { id: string; path?: string; index?: boolean; caseSensitive?: boolean; children: RouteNode[] };

/**
 * `pathname` → the namespaces of the routes matching it (sorted), computed once per route from the
 * build in `clientDir`. `names`: the web namespaces.
 */
export function pageNamespaces(build: Pick<ServerBuild, "routes" | "assets">, clientDir: string, names: readonly string[], errorNamespaces: readonly string[] = []) {
  const chunkCache = new Map<string, string[]>();
  // A chunk's namespaces include those of the chunks it loads later with import("./x.js")
  // (React.lazy, the e-mail editor): they render on the same page.
  const chunk = (file: string): string[] => {
    let found = chunkCache.get(file);
    if (!found) {
      chunkCache.set(file, []); // a cycle of dynamic imports ends here
      const text = readFileSync(join(clientDir, file), "utf8");
      const set = new Set(namespacesInChunk(text, names));
      const dir = file.slice(0, file.lastIndexOf("/") + 1);
      for (const m of text.matchAll(/import\("\.\/([\w.()$-]+\.js)"\)/g)) for (const n of chunk(dir + m[1])) set.add(n);
      found = [...set];
      chunkCache.set(file, found);
    }
    return found;
  };
  const ofRoute = new Map<string, string[]>();
  for (const [id, entry] of Object.entries(build.assets.routes)) {
    const set = new Set<string>();
    for (const file of [entry.module, ...(entry.imports ?? [])]) for (const n of chunk(file)) set.add(n);
    ofRoute.set(id, [...set]);
  }
  const nodes = new Map<string, RouteNode>();
  for (const r of Object.values(build.routes)) nodes.set(r.id, { id: r.id, path: r.path, index: r.index, caseSensitive: r.caseSensitive, children: [] });
  const roots: RouteNode[] = [];
  for (const r of Object.values(build.routes)) {
    const node = nodes.get(r.id) as RouteNode;
    const parent = r.parentId ? nodes.get(r.parentId) : undefined;
    if (parent) parent.children.push(node);
    else roots.push(node);
  }
  const memo = new Map<string, string[]>();
  return (pathname: string): string[] => {
    const matches = matchRoutes(roots as Parameters<typeof matchRoutes>[0], pathname) ?? [];
    const key = matches.map((m) => m.route.id).join("|");
    let result = memo.get(key);
    if (!result) {
      const set = new Set<string>(ALWAYS);
      for (const m of matches) for (const n of ofRoute.get(m.route.id as string) ?? []) set.add(n);
      // A page with a form (an action) may show a refusal in any area's words (an invitation's acceptance refused for the agent seat's price).
      if (matches.some((m) => (build.routes[m.route.id as string] as { module?: { action?: unknown } } | undefined)?.module?.action)) {
        for (const n of errorNamespaces) set.add(n);
      }
      result = [...set].sort();
      memo.set(key, result);
    }
    return result;
  };
}
