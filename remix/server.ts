/**
 * The web process (`bun remix/server.ts`): registers the route-matching memo with Bun's loader
 * (remix/router-memo-plugin.ts, ADR 073), then loads the server itself (remix/web-server.ts). The
 * memo has to be in place before @remix-run/router loads, and a module's static imports all load
 * before its first line runs: hence this entry of two steps.
 */
import "./router-memo-plugin";

await import("./web-server");
