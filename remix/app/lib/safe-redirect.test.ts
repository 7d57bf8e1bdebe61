import { describe, expect, it } from "vitest";
import { safeRedirectPath } from "./safe-redirect";

const ORIGIN = "https://app.example";

describe("safeRedirectPath", () => {
  it("keeps a path on our origin with its query and hash", () => {
    expect(safeRedirectPath("/ok?x=1#y", ORIGIN)).toBe("/ok?x=1#y");
    expect(safeRedirectPath("/invitation/abc", ORIGIN)).toBe("/invitation/abc");
    expect(safeRedirectPath("/a%20b", ORIGIN)).toBe("/a%20b");
  });

  it("answers the fallback for anything a browser could read as another origin", () => {
    for (const evil of [
      "/\\evil.example",
      "/%09/evil.example",
      "/\t/evil.example",
      "/\n/evil.example",
      "\t//evil.example",
      "//evil.example",
      "///evil.example",
      "https://evil.example",
      "javascript:alert(1)",
      "/%5Cevil.example",
      "/%2F/evil.example",
      "/%2f%2fevil.example",
      "evil.example",
      "",
      "/%E0%A4%A",
    ]) {
      expect(safeRedirectPath(evil, ORIGIN), JSON.stringify(evil)).toBe("/");
    }
    expect(safeRedirectPath(undefined, ORIGIN, "/back")).toBe("/back");
    expect(safeRedirectPath(["/ok"], ORIGIN)).toBe("/");
  });
});
