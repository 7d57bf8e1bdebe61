/**
 * package.json says exactly what the code uses (issue 13): every package a source file imports
 * is declared, and every declared package is imported somewhere, is a peer dependency that an
 * imported package needs, is the types of an imported one, or is named in NOT_IMPORTED with the
 * place that uses it. Runs in the unit project, so `npm run check` catches a stale entry.
 */
import { builtinModules } from "node:module";
import { existsSync, readFileSync, readdirSync } from "node:fs";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";

const root = resolve(__dirname, "..", "..");
const DIRS = ["api", "remix", "realtime", "models", "seeds", "tests", "bench", "public-src"];
const SKIP = new Set(["node_modules", "build", ".build", ".artifacts"]);
const CODE = /\.(ts|tsx|mjs|js|cjs)$/;

/** Declared but never imported: each with a file and the text in it that shows the use. */
const NOT_IMPORTED: Record<string, [file: string, needle: string]> = {
  "@biomejs/biome": ["package.json", "biome ci"],
  typescript: ["package.json", "tsc --noEmit"],
  "bun-types": ["tsconfig.json", '"bun-types"'],
  "@redocly/cli": ["tests/integration/openapi.test.ts", 'bin("redocly")'],
  "openapi-typescript": ["tests/integration/openapi.test.ts", 'bin("openapi-typescript")'],
  // Sequelize's postgres dialect requires it at run time without declaring it.
  "pg-hstore": ["node_modules/sequelize/lib/dialects/postgres/hstore.js", 'require("pg-hstore")'],
};

function files(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (SKIP.has(e.name) ? [] : e.isDirectory() ? files(join(dir, e.name)) : [join(dir, e.name)]));
}

/**
 * The package names a file imports: import and export statements with a from clause, bare
 * imports, dynamic import, require and require.resolve calls, and CSS @import rules. Statements
 * are matched at the start of a line, so a comment or a string that says "from" is no import.
 */
function imported(text: string): string[] {
  const patterns = [
    /^\s*(?:import|export)\s+[\w$*{}\s,]*?\bfrom\s*["']([^"'\n]+)["']/gm,
    /^\s*import\s*["']([^"'\n]+)["']/gm,
    /\b(?:import|require)\s*\(\s*["']([^"'\n]+)["']\s*\)/g,
    /\.resolve\s*\(\s*["']([^"'\n]+)["']/g,
    /^\s*@import\s+["']([^"'\n]+)["']/gm,
  ];
  return patterns
    .flatMap((re) => [...text.matchAll(re)].map((m) => m[1]))
    .flatMap((s) => {
      if (/^[./~]/.test(s) || s.startsWith("node:") || s.startsWith("bun:")) return [];
      const name = s.startsWith("@") ? s.split("/").slice(0, 2).join("/") : s.split("/")[0];
      return builtinModules.includes(name) ? [] : [name];
    });
}

const pkg = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as { dependencies: Record<string, string>; devDependencies: Record<string, string> };
const declared = new Set([...Object.keys(pkg.dependencies), ...Object.keys(pkg.devDependencies)]);
const uses = new Map<string, string>(); // package -> first file importing it
for (const f of DIRS.flatMap((d) => files(join(root, d))).filter((f) => CODE.test(f) || f.endsWith(".css"))) {
  for (const name of imported(readFileSync(f, "utf8"))) if (!uses.has(name)) uses.set(name, f.slice(root.length + 1));
}

const peersOf = (name: string): string[] => {
  const file = join(root, "node_modules", name, "package.json");
  return existsSync(file) ? Object.keys((JSON.parse(readFileSync(file, "utf8")) as { peerDependencies?: Record<string, string> }).peerDependencies ?? {}) : [];
};

describe("package.json", () => {
  it("declares every package the code imports", () => {
    expect([...uses].filter(([name]) => !declared.has(name)).map(([name, file]) => `${name} (${file})`)).toEqual([]);
  });

  it("declares nothing the code does not use", () => {
    const peers = new Set([...uses.keys()].flatMap(peersOf));
    const used = (name: string) =>
      uses.has(name) ||
      peers.has(name) ||
      (name.startsWith("@types/") && (name === "@types/node" || uses.has(name.slice(7).replace(/^(.+)__(.+)$/, "@$1/$2")))) ||
      name in NOT_IMPORTED;
    expect([...declared].filter((name) => !used(name))).toEqual([]);
  });

  it("the uses named in NOT_IMPORTED are still there", () => {
    for (const [name, [file, needle]] of Object.entries(NOT_IMPORTED)) {
      expect(declared.has(name), `${name} is declared`).toBe(true);
      expect(readFileSync(join(root, file), "utf8"), `${file} uses ${name}`).toContain(needle);
    }
  });
});
