import { spawn } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { bindRefusal, isLoopbackHost, parseEnv, SECRET_NAMES } from "./env";

const root = resolve(__dirname, "..", "..");
const checkouts: string[] = [];
const checkout = () => {
  checkouts.push(mkdtempSync(join(tmpdir(), "mensageria-checkout-")));
  return checkouts.at(-1)!;
};
afterAll(() => {
  for (const dir of checkouts) rmSync(dir, { recursive: true, force: true });
});
const devEnv = (dir: string) => parseEnv({ NODE_ENV: "development", DEV_SECRETS_FILE: join(dir, ".secrets.dev.env") });
const secretsOf = (e: Record<string, unknown>) => Object.fromEntries(SECRET_NAMES.map((n) => [n, e[n]]));

describe("development secrets", () => {
  it("are random, written once to the checkout's file (mode 0600) and read back by the next start", () => {
    const dir = checkout();
    const first = devEnv(dir);
    const file = join(dir, ".secrets.dev.env");
    expect(first.DEV_SECRETS).toBe(true);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const values = SECRET_NAMES.map((n) => first[n]);
    for (const v of values) expect(v.length).toBeGreaterThanOrEqual(32);
    expect(new Set(values).size).toBe(values.length);
    for (const n of SECRET_NAMES) expect(readFileSync(file, "utf8")).toContain(`${n}=${first[n]}\n`);
    expect(secretsOf(devEnv(dir))).toEqual(secretsOf(first));
    // Nothing but the file is left behind (the temporary it was linked from is gone).
    expect(readdirSync(dir)).toEqual([".secrets.dev.env"]);
  });

  it("differ between two checkouts", () => {
    const a = devEnv(checkout());
    const b = devEnv(checkout());
    for (const n of SECRET_NAMES) expect(a[n]).not.toBe(b[n]);
  });

  it("are the same for processes that start together on a new checkout", async () => {
    const file = join(checkout(), ".secrets.dev.env");
    const bun = join(root, "node_modules", ".bin", "bun");
    const script = `import { parseEnv } from ${JSON.stringify(join(root, "api", "lib", "env.ts"))}; const e = parseEnv(process.env); console.log(JSON.stringify([e.SESSION_SECRET, e.JWT_SECRET, e.SIMULATOR_WEBHOOK_SECRET, e.SIMULATOR_API_KEY]));`;
    const env = { PATH: process.env.PATH, NODE_ENV: "development", DEV_SECRETS_FILE: file } as NodeJS.ProcessEnv;
    const outputs = await Promise.all(
      Array.from(
        { length: 6 },
        () =>
          new Promise<string>((done, fail) => {
            const child = spawn(bun, ["-e", script], { cwd: root, env });
            let out = "";
            let err = "";
            child.stdout.on("data", (c: Buffer) => (out += c));
            child.stderr.on("data", (c: Buffer) => (err += c));
            // "close", not "exit": stdout may still hold the line when the process has exited.
            child.on("close", (code) => (code === 0 ? done(out.trim()) : fail(new Error(`exit ${code}: ${err}`))));
          }),
      ),
    );
    expect(new Set(outputs).size, `outputs:\n${outputs.join("\n")}`).toBe(1);
    expect(JSON.parse(outputs[0])).toEqual(SECRET_NAMES.map((n) => devEnv(join(file, ".."))[n]));
  });

  it("are not used for the secrets set in the environment, nor at all when all are set", () => {
    const dir = checkout();
    const given = { SESSION_SECRET: "s".repeat(40), JWT_SECRET: "j".repeat(40), SIMULATOR_WEBHOOK_SECRET: "w".repeat(30), SIMULATOR_API_KEY: "k".repeat(20) };
    const e = parseEnv({ NODE_ENV: "development", DEV_SECRETS_FILE: join(dir, ".secrets.dev.env"), ...given });
    expect(secretsOf(e)).toEqual(given);
    expect(e.DEV_SECRETS).toBe(false);
    expect(readdirSync(dir)).toEqual([]);
    const partial = parseEnv({ NODE_ENV: "test", DEV_SECRETS_FILE: join(dir, ".secrets.dev.env"), JWT_SECRET: given.JWT_SECRET });
    expect(partial.JWT_SECRET).toBe(given.JWT_SECRET);
    expect(partial.DEV_SECRETS).toBe(true);
    expect(partial.SESSION_SECRET).toBe(devEnv(dir).SESSION_SECRET);
  });

  it("are never made up in production: each missing secret is named", () => {
    const dir = checkout();
    expect(() => parseEnv({ NODE_ENV: "production", APP_URL: "https://app.example", DEV_SECRETS_FILE: join(dir, ".secrets.dev.env") })).toThrow(
      /SESSION_SECRET: is required in production[\s\S]*JWT_SECRET[\s\S]*SIMULATOR_WEBHOOK_SECRET[\s\S]*SIMULATOR_API_KEY/,
    );
    expect(readdirSync(dir)).toEqual([]);
  });

  it("no fixed secret is left in the source", () => {
    const fixed = ["development" + "-only", "bench-secret-0123", "bench-jwt-secret", "bench-simulator-"];
    const offenders: string[] = [];
    const walk = (dir: string) => {
      for (const entry of readdirSync(dir, { withFileTypes: true })) {
        const p = join(dir, entry.name);
        if (["node_modules", "build", ".cache"].includes(entry.name) || p === __filename) continue;
        if (entry.isDirectory()) walk(p);
        else if (/\.(ts|tsx|mjs|js)$/.test(entry.name) && fixed.some((f) => readFileSync(p, "utf8").includes(f))) offenders.push(p.slice(root.length + 1));
      }
    };
    for (const dir of ["api", "remix", "realtime", "seeds", "models", "tests", "bench"]) walk(join(root, dir));
    expect(offenders).toEqual([]);
  });
});

describe("listeners", () => {
  it("default to loopback", () => {
    const e = devEnv(checkout());
    expect(e.WEB_HOST).toBe("127.0.0.1");
    expect(e.SMPP_HOST).toBe("127.0.0.1");
    expect(e.EMAIL_INBOUND_HOST).toBe("127.0.0.1");
    expect(e.EMAIL_INBOUND_PORT).toBe(2526);
  });

  it("take the inbound mail listener's TLS key and certificate together or not at all", () => {
    const base = { NODE_ENV: "development", DEV_SECRETS_FILE: join(checkout(), ".secrets.dev.env") };
    expect(parseEnv({ ...base, EMAIL_INBOUND_TLS_KEY: "/etc/k.pem", EMAIL_INBOUND_TLS_CERT: "/etc/c.pem" }).EMAIL_INBOUND_TLS_CERT).toBe("/etc/c.pem");
    expect(() => parseEnv({ ...base, EMAIL_INBOUND_TLS_KEY: "/etc/k.pem" })).toThrow(/EMAIL_INBOUND_TLS_CERT: is not set but EMAIL_INBOUND_TLS_KEY is/);
    expect(() => parseEnv({ ...base, EMAIL_INBOUND_TLS_CERT: "/etc/c.pem", EMAIL_INBOUND_TLS_KEY: " " })).toThrow(
      /EMAIL_INBOUND_TLS_KEY: is not set but EMAIL_INBOUND_TLS_CERT is/,
    );
  });

  it("refuse any address but loopback with development secrets, naming the variable", () => {
    const dev = { DEV_SECRETS: true, DEV_SECRETS_FILE: ".secrets.dev.env" };
    for (const host of ["127.0.0.1", "127.1.2.3", "localhost", "::1", "[::1]", "0:0:0:0:0:0:0:1", "::ffff:127.0.0.1"]) {
      expect(isLoopbackHost(host), host).toBe(true);
      expect(bindRefusal(dev, host, "WEB_HOST"), host).toBeNull();
    }
    for (const host of ["0.0.0.0", "::", "192.168.0.10", "10.0.0.1", "example.com", "", "::2"]) {
      expect(isLoopbackHost(host), host).toBe(false);
      expect(bindRefusal(dev, host, "SMPP_HOST"), host).toMatch(/^SMPP_HOST=.* refused: .*Set SESSION_SECRET, JWT_SECRET, SIMULATOR_WEBHOOK_SECRET, SIMULATOR_API_KEY/);
    }
    expect(bindRefusal({ ...dev, DEV_SECRETS: false }, "0.0.0.0", "WEB_HOST")).toBeNull();
  });
});

describe("DATABASE_REPLICA_URL (ADR 030)", () => {
  const withReplica = (extra: Record<string, string>) =>
    parseEnv({ NODE_ENV: "test", DEV_SECRETS_FILE: join(checkout(), ".secrets.dev.env"), DATABASE_URL: "postgres://app@db1:5432/mensageria", ...extra });

  it("is optional; the lag bound and the check interval have documented defaults", () => {
    const e = withReplica({});
    expect(e.DATABASE_REPLICA_URL).toBeUndefined();
    expect(e.REPLICA_MAX_LAG_MS).toBe(5000);
    expect(e.REPLICA_CHECK_MS).toBe(1000);
    expect(withReplica({ DATABASE_REPLICA_URL: "postgres://app@db2:5433/mensageria", REPLICA_MAX_LAG_MS: "2000" })).toMatchObject({
      DATABASE_REPLICA_URL: "postgres://app@db2:5433/mensageria",
      REPLICA_MAX_LAG_MS: 2000,
    });
  });

  it("stops the process at start with a sentence naming it when it is malformed", () => {
    expect(() => withReplica({ DATABASE_REPLICA_URL: "db2:5433" })).toThrow(/DATABASE_REPLICA_URL: (is not a URL|must start with postgres)/);
    expect(() => withReplica({ DATABASE_REPLICA_URL: "not a url" })).toThrow("DATABASE_REPLICA_URL: is not a URL (postgres://user:password@host:5432/database)");
    expect(() => withReplica({ DATABASE_REPLICA_URL: "http://db2:5433/mensageria" })).toThrow("DATABASE_REPLICA_URL: must start with postgres:// (not http://)");
    expect(() => withReplica({ DATABASE_REPLICA_URL: "postgres://app@db2:5433" })).toThrow("DATABASE_REPLICA_URL: names no database");
    expect(() => withReplica({ DATABASE_REPLICA_URL: "postgres://app@db2:5433/other" })).toThrow(
      'DATABASE_REPLICA_URL: names database "other" but DATABASE_URL names "mensageria"',
    );
    expect(() => withReplica({ DATABASE_REPLICA_URL: "postgres://app@db2/mensageria", REPLICA_MAX_LAG_MS: "0" })).toThrow("REPLICA_MAX_LAG_MS");
  });

  it("compares the database names only when DATABASE_URL is given (a test process reading its secrets has none)", () => {
    const e = parseEnv({ NODE_ENV: "test", DEV_SECRETS_FILE: join(checkout(), ".secrets.dev.env"), DATABASE_REPLICA_URL: "postgres://app@db2:5433/mensageria_test_x" });
    expect(e.DATABASE_REPLICA_URL).toBe("postgres://app@db2:5433/mensageria_test_x");
  });
});
