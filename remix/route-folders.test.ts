/**
 * The area folders change no URL (ADR 026): the route tree built from remix/app/routes/<area>/ is
 * the one recorded in remix/route-tree.json, which was written by Remix's own flat-routes scan of
 * the single folder before the move. A new or renamed route changes the tree on purpose: record it
 * with `npx vitest run -u --config tests/vitest.unit.config.ts remix/route-folders.test.ts` and
 * read the diff.
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { UNSAFE_RouteManifest as RouteManifest, UNSAFE_RouteManifestEntry as RouteManifestEntry } from "@remix-run/dev";
import { areaOf, routeFiles, routeFolders } from "./route-folders";

const appDirectory = resolve(__dirname, "app");

/** The URL pattern a route answers, from its ancestors' paths ("/" for a pathless layout at the top). */
function urlOf(manifest: RouteManifest, id: string): string {
  const parts: string[] = [];
  for (let route: RouteManifestEntry | undefined = manifest[id]; route; route = route.parentId ? manifest[route.parentId] : undefined) if (route.path) parts.unshift(route.path);
  return `/${parts.join("/")}`;
}

/** What decides the URLs and the nesting, by route id; the file's folder is left out (it is what moved). */
function routeTree(manifest: RouteManifest) {
  const ids = Object.keys(manifest).sort();
  return Object.fromEntries(ids.map((id) => [id, { url: urlOf(manifest, id), path: manifest[id].path, parentId: manifest[id].parentId, index: manifest[id].index }]));
}

describe("route folders", () => {
  const manifest = routeFolders(appDirectory);

  it("build the route tree recorded in route-tree.json", async () => {
    await expect(`${JSON.stringify(routeTree(manifest), null, 2)}\n`).toMatchFileSnapshot("route-tree.json");
  });

  it("keep each route's id as its file name, and point at a file that exists", () => {
    const wrong = Object.values(manifest).filter((route) => {
      const name = route.file.slice(route.file.lastIndexOf("/") + 1);
      return route.id !== `routes/${name.replace(/\.tsx?$/, "")}` || !existsSync(join(appDirectory, route.file));
    });
    expect(wrong).toEqual([]);
  });

  it("place each file in the folder of the URL it serves", () => {
    const misplaced = routeFiles(appDirectory).flatMap((file) => {
      const [folder, name] = file.includes("/") ? file.split("/") : ["", file];
      const area = areaOf(name);
      return folder === area ? [] : [`${file} belongs in routes/${area ? `${area}/` : ""}`];
    });
    expect(misplaced).toEqual([]);
  });

  it("read the area of a file from its URL's first segment", () => {
    expect(
      ["_app.sms.history.$id.tsx", "_app.live_.configs.system.tsx", "_app.chat.macros._index.tsx", "_auth.login.tsx", "_auth.tsx", "callback.$provider.tsx"].map(areaOf),
    ).toEqual(["sms", "live", "live", "guest", "guest", "guest"]);
    expect(["_app.tsx", "_app._index.tsx", "$.tsx", "_app.403.tsx", "locale.tsx"].map(areaOf)).toEqual(["", "", "", "", ""]);
    expect(areaOf("_app.mail.send._index.tsx")).toBe("mail");
  });

  describe("refuse a layout they cannot read unambiguously", () => {
    let dir = "";
    afterEach(() => rmSync(dir, { recursive: true, force: true }));

    function app(files: string[]) {
      dir = mkdtempSync(join(tmpdir(), "route-folders-"));
      for (const file of files) {
        mkdirSync(join(dir, "routes", file, ".."), { recursive: true });
        writeFileSync(join(dir, "routes", file), "export default function Page() { return null; }\n");
      }
      return dir;
    }

    it("the same file name in two folders", () => {
      expect(() => routeFolders(app(["sms/_app.sms.tsx", "live/_app.sms.tsx"]))).toThrow(/same route/);
    });

    it("a folder inside an area folder", () => {
      expect(() => routeFolders(app(["sms/reports/_app.sms.reports.tsx"]))).toThrow(/one level deep/);
    });
  });
});
