import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { DOCUMENT_PATHS } from "./hydration";

const routes = join(import.meta.dirname, "..", "routes");

describe("pages served without React (ADR 051)", () => {
  it("DOCUMENT_PATHS names exactly the routes whose handle turns hydration off, each with documentLoad as clientLoader", () => {
    const files: Record<string, string> = { "/login": "guest/_auth.login.tsx", "/sms/send": "sms/_app.sms.send._index.tsx" };
    expect([...DOCUMENT_PATHS].sort()).toEqual(Object.keys(files).sort());
    const marked = (readdirSync(routes, { recursive: true }) as string[]).filter((f) => /\.tsx?$/.test(f) && readFileSync(join(routes, f), "utf8").includes("NO_HYDRATION"));
    expect(marked.sort()).toEqual(Object.values(files).sort());
    for (const file of Object.values(files)) {
      const source = readFileSync(join(routes, file), "utf8");
      expect(source, file).toMatch(/export const handle = (NO_HYDRATION|\{[^}]*\.\.\.NO_HYDRATION)/);
      expect(source, file).toContain("export const clientLoader = documentLoad;");
    }
  });
});
