/**
 * Route matching once per route table, not once per call (ADR 073).
 *
 * @remix-run/router 1.x flattens and ranks the whole route table on every `matchRoutes` call and
 * compiles each candidate route's path into a RegExp on every `matchPath`. With our ~300 routes a
 * match costs about 0.6 ms of CPU, and the server matches many times per page: the document
 * request, and `/__manifest?p=…` (lazy route discovery), which matches every link the page shows —
 * a screen with the sidebar's hundred links spent ~60 ms of the web server's CPU there. Measured
 * with `bun --cpu-prof-md` over the accessibility walk: route flattening was 70 % of the server's
 * CPU.
 *
 * remix/router-memo-plugin.ts, a Bun plugin the web server imports first, rewrites the router's
 * CommonJS build (the one the server loads) with `memoizeRouter` as it is loaded:
 * - `matchRoutesImpl` keeps each route array's results by URL (at most 2,000 URLs per array, the
 *   oldest dropped first) and hands every caller its own copy of the matches and their params;
 * - on a miss, the flattened, ranked branches of the array come from a WeakMap (the server's route
 *   arrays are built once per build and never changed; an array built per request is flattened
 *   once, as before);
 * - `compilePath` keeps each (path, caseSensitive, end)'s RegExp and parameter list (route paths
 *   are a finite set of code constants; bounded anyway).
 * The matching itself is the router's own code, unchanged. If an upgrade changes the text this
 * looks for, loading fails with a message instead of running unpatched; remix/router-memo.test.ts
 * checks that the patched router matches every route as the original does.
 */

export const ROUTER_CJS = /[\\/]@remix-run[\\/]router[\\/]dist[\\/]router\.cjs\.js$/;

/** Set on the patched module's exports: the web server checks it at start (remix/web-server.ts). */
export const MEMO_MARK = "UNSAFE_routeMatchMemo";

const MATCH = "  let branches = flattenRoutes(routes);\n  rankRouteBranches(branches);\n";
const COMPILE = "function compilePath(path, caseSensitive, end) {\n";
const IMPL = "function matchRoutesImpl(routes, locationArg, basename, allowPartial) {\n";

const HELPERS = `
const __memoMatches = new WeakMap();
function __copyMatches(matches) {
  return matches === null ? null : matches.map((m) => Object.assign({}, m, { params: Object.assign({}, m.params) }));
}
function matchRoutesImpl(routes, locationArg, basename, allowPartial) {
  let byUrl = __memoMatches.get(routes);
  if (byUrl === undefined) {
    byUrl = new Map();
    __memoMatches.set(routes, byUrl);
  }
  const key = (allowPartial ? "1" : "0") + basename + "\u0000" + (typeof locationArg === "string" ? locationArg : locationArg.pathname || "/");
  let matches = byUrl.get(key);
  if (matches === undefined) {
    matches = __matchRoutesImplOnce(routes, locationArg, basename, allowPartial);
    if (byUrl.size >= 2000) byUrl.delete(byUrl.keys().next().value);
    byUrl.set(key, matches);
  }
  return __copyMatches(matches);
}
const __memoBranches = new WeakMap();
function __rankedBranches(routes) {
  let branches = __memoBranches.get(routes);
  if (branches === undefined) {
    branches = flattenRoutes(routes);
    rankRouteBranches(branches);
    __memoBranches.set(routes, branches);
  }
  return branches;
}
const __memoCompiled = new Map();
function compilePath(path, caseSensitive, end) {
  if (caseSensitive === void 0) caseSensitive = false;
  if (end === void 0) end = true;
  const key = (caseSensitive ? "1" : "0") + (end ? "1" : "0") + path;
  let compiled = __memoCompiled.get(key);
  if (compiled === undefined) {
    compiled = __compilePathOnce(path, caseSensitive, end);
    if (__memoCompiled.size < 10000) __memoCompiled.set(key, compiled);
  }
  return compiled;
}
`;

/** The router's source with both memos in; throws when the source is not the one this was written for. */
export function memoizeRouter(source: string): string {
  if ([MATCH, COMPILE, IMPL].some((text) => source.split(text).length !== 2)) {
    throw new Error("remix/router-memo.ts: @remix-run/router's matchRoutesImpl or compilePath changed; update the memo (ADR 073)");
  }
  return `${source.replace(MATCH, "  let branches = __rankedBranches(routes);\n").replace(COMPILE, "function __compilePathOnce(path, caseSensitive, end) {\n").replace(IMPL, "function __matchRoutesImplOnce(routes, locationArg, basename, allowPartial) {\n")}${HELPERS}exports.${MEMO_MARK} = true;\n`;
}
