/**
 * Security issue 11, item 3: no secret in the source, listeners on loopback unless told
 * otherwise (and never elsewhere with development secrets), access tokens must expire.
 */
import { spawn } from "node:child_process";
import { createHmac } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, describe, expect, inject, it } from "vitest";
import { SECRET_NAMES } from "../../api/lib/env";
import { api, login, registerPerson } from "../support/api";
import { freePort } from "../support/net";
import { randomSecrets } from "../support/secrets";

const root = resolve(__dirname, "..", "..");
const bun = resolve(root, "node_modules", ".bin", "bun");

const checkouts: string[] = [];
afterAll(() => {
  for (const dir of checkouts) rmSync(dir, { recursive: true, force: true });
});

/** The run's env without any secret: a development start on a fresh checkout (its own secrets file). */
function developmentEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  checkouts.push(mkdtempSync(join(tmpdir(), "mensageria-checkout-")));
  const env: NodeJS.ProcessEnv = { ...process.env, NODE_ENV: "development", DEV_SECRETS_FILE: join(checkouts.at(-1)!, ".secrets.dev.env") };
  for (const name of SECRET_NAMES) delete env[name];
  // Its own Redis prefix: these short-lived processes never consume the run's streams.
  return { ...env, DATABASE_URL: inject("databaseUrl"), REDIS_URL: inject("redisUrl"), REDIS_PREFIX: `${inject("redisPrefix")}dev-secrets:`, ...extra };
}

/**
 * Starts `script` and settles on what it does first: exits (code and output) or prints a line
 * matching `listening` (then it is stopped). Bounded by the test's timeout, no sleeps.
 */
function firstOutcome(script: string, env: NodeJS.ProcessEnv, listening: RegExp) {
  return new Promise<{ exited: number | null; listened: string | null; output: string }>((done) => {
    const child = spawn(bun, [script], { cwd: root, env, stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    let line: string | undefined;
    const seen = (chunk: Buffer) => {
      output += chunk;
      if (line) return;
      line = output.split("\n").find((l) => listening.test(l));
      if (line) {
        child.removeAllListeners("close");
        child.once("close", () => done({ exited: null, listened: line!, output }));
        child.kill("SIGKILL");
      }
    };
    child.stdout.on("data", seen);
    child.stderr.on("data", seen);
    child.on("close", (code) => done({ exited: code, listened: null, output }));
  });
}

describe("listeners with development secrets", () => {
  it("the web process refuses WEB_HOST=0.0.0.0, naming the variable", async () => {
    const r = await firstOutcome("remix/server.ts", developmentEnv({ WEB_HOST: "0.0.0.0", WEB_PORT: String(await freePort()) }), /web listening on/);
    expect(r.listened).toBeNull();
    expect(r.exited).not.toBe(0);
    expect(r.output).toContain("WEB_HOST=0.0.0.0 refused");
    expect(r.output).toContain("Set SESSION_SECRET, JWT_SECRET, SIMULATOR_WEBHOOK_SECRET, SIMULATOR_API_KEY");
  });

  it("the SMPP server refuses SMPP_HOST=0.0.0.0, naming the variable", async () => {
    const r = await firstOutcome("api/smpp/server.ts", developmentEnv({ SMPP_HOST: "0.0.0.0", SMPP_PORT: String(await freePort()) }), /smpp server listening on/);
    expect(r.listened).toBeNull();
    expect(r.exited).not.toBe(0);
    expect(r.output).toContain("SMPP_HOST=0.0.0.0 refused");
  });

  it("the web and SMPP listeners bind 127.0.0.1 when not told otherwise", async () => {
    const env = developmentEnv({ WEB_PORT: String(await freePort()), SMPP_PORT: String(await freePort()) });
    delete env.WEB_HOST;
    delete env.SMPP_HOST;
    const web = await firstOutcome("remix/server.ts", env, /web listening on/);
    expect(web.listened).toContain(`web listening on http://127.0.0.1:${env.WEB_PORT} `);
    const smpp = await firstOutcome("api/smpp/server.ts", env, /smpp server listening on/);
    expect(smpp.listened).toContain(`smpp server listening on 127.0.0.1:${env.SMPP_PORT}`);
  });

  it("with real secrets set, another address is the operator's choice", async () => {
    const port = String(await freePort());
    const r = await firstOutcome("api/smpp/server.ts", developmentEnv({ ...randomSecrets(), SMPP_HOST: "0.0.0.0", SMPP_PORT: port }), /smpp server listening on/);
    expect(r.listened).toContain(`smpp server listening on 0.0.0.0:${port}`);
  });
});

/** An HS256 JWT signed with `secret`, carrying exactly `claims`. */
function signJwt(claims: Record<string, unknown>, secret: string) {
  const part = (o: unknown) => Buffer.from(JSON.stringify(o)).toString("base64url");
  const body = `${part({ alg: "HS256", typ: "JWT" })}.${part(claims)}`;
  return `${body}.${createHmac("sha256", secret).update(body).digest("base64url")}`;
}
const claimsOf = (token: string) => JSON.parse(Buffer.from(token.split(".")[1], "base64url").toString("utf8")) as Record<string, unknown>;
const withoutExp = ({ exp: _exp, ...claims }: Record<string, unknown>) => claims;

describe("tokens without exp", () => {
  it("an access token with a staff member's claims but no exp is refused by the API and the realtime service", async () => {
    const p = await registerPerson("noexp");
    const issued = claimsOf((await login(p.email, p.password)).token);
    expect(issued).toMatchObject({ sub: p.userId, typ: "access", tfa: "ok" });
    const now = Math.floor(Date.now() / 1000);
    const forever = signJwt({ ...withoutExp(issued), iat: now }, inject("jwtSecret"));
    const expiring = signJwt({ ...withoutExp(issued), iat: now, exp: now + 300 }, inject("jwtSecret"));

    const refused = await api("/api/accounts/info", { token: forever, lang: "en" });
    expect(refused.status).toBe(401);
    expect(refused.body.error.code).toBe("UNAUTHENTICATED");
    expect((await api("/api/accounts/info", { token: expiring })).status).toBe(200);

    const sse = (token: string) => fetch(`${inject("realtimeUrl")}/realtime/sse?token=${token}`, { signal: AbortSignal.timeout(10_000) });
    expect((await sse(forever)).status).toBe(401);
    const open = await sse(expiring);
    expect(open.status).toBe(200);
    await open.body?.cancel();
  });

  it("a refresh token without exp is refused (and not spent)", async () => {
    const p = await registerPerson("noexprefresh");
    const pair = await login(p.email, p.password);
    const forever = signJwt(withoutExp(claimsOf(pair.refresh_token!)), inject("jwtSecret") + ":refresh");
    const refused = await api("/api/auth/token", { token: forever });
    expect(refused.status).toBe(401);
    expect(refused.body.error.code).toBe("INVALID_TOKEN");
    expect((await api("/api/auth/token", { token: pair.refresh_token })).status).toBe(200);
  });
});
