/**
 * Security issue 11, items 11 and 12: the auth steps that check a secret or send an e-mail are
 * rate-limited in their use-cases (api/auth/rate-limit.ts on api/lib/rate-limit.ts); a known
 * person cannot be locked out by someone who knows their e-mail; a sign-up never says whether an
 * address is taken (the owner of the address gets an e-mail instead).
 *
 * The run's shared stack raises the per-IP limits (every web test comes from 127.0.0.1), so the
 * per-IP rules are tested on a private stack with small limits; the per-e-mail and per-person
 * rules run here with their defaults (5). The client IP is the last X-Forwarded-For entry only
 * when the socket is our own loopback proxy (api/http/auth.ts clientIp), as these tests are.
 */
import { spawnSync } from "node:child_process";
import { resolve } from "node:path";
import { request } from "node:http";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { NEW_PASSWORD, api, login, randomIp, registerPerson } from "../support/api";
import { lastMailTo, query, uniqueEmail } from "../support/db";
import { startStack, type Stack } from "../support/stack";
import { WebClient, location } from "../support/web";
import { openRedis } from "../support/redis";

const redis = openRedis(inject("redisUrl"));
afterAll(async () => {
  await redis.quit();
});

const WRONG = "Errada!Senha#7x";
const signUp = (email: string, extra: Record<string, unknown> = {}) => ({
  firstName: "Ana",
  lastName: "Souza",
  email,
  password: NEW_PASSWORD,
  confirmPassword: NEW_PASSWORD,
  companyName: "Padaria Boa",
  acceptTerms: true,
  ...extra,
});

/** Messages the loopback SMTP peer received for an address (the worker delivered them). */
async function receivedBy(address: string) {
  const all = (await redis.lrange(`${inject("redisPrefix")}smtp:received`, 0, -1)).map((m) => JSON.parse(m) as { to: string[]; raw: string });
  return all.filter((m) => m.to.includes(address.toLowerCase()));
}

describe("sign-in lock", () => {
  it("an attacker's failures lock only their (e-mail, IP) pair: the owner signs in from elsewhere", async () => {
    const owner = await registerPerson("lockout");
    const attacker = randomIp();
    const statuses: number[] = [];
    for (let i = 0; i < 10; i++) statuses.push((await api("/api/auth/login", { body: { email: owner.email, password: `${WRONG}${i}` }, ip: attacker })).status);
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429, 429, 429, 429, 429]);

    const mine = await api("/api/auth/login", { body: { email: owner.email, password: owner.password }, ip: randomIp() });
    expect(mine.status, JSON.stringify(mine.body)).toBe(200);
    expect(mine.body.token).toMatch(/^ey/);

    // The attacker's pair stays locked, even with the right password.
    const theirs = await api("/api/auth/login", { body: { email: owner.email, password: owner.password }, ip: attacker, lang: "en" });
    expect(theirs.status).toBe(429);
    expect(theirs.body.error.code).toBe("TOO_MANY_ATTEMPTS");
    expect(theirs.body.error.message).toMatch(/Try again in \d+ min/);
    expect(Number(theirs.headers.get("Retry-After"))).toBeGreaterThan(0);
  });

  it("failures spread over many IPs slow the e-mail down but never block it", async () => {
    const owner = await registerPerson("slowdown");
    for (let i = 0; i < 6; i++) expect((await api("/api/auth/login", { body: { email: owner.email, password: `${WRONG}${i}` }, ip: randomIp() })).status).toBe(401);
    const started = Date.now();
    const mine = await api("/api/auth/login", { body: { email: owner.email, password: owner.password }, ip: randomIp() });
    expect(mine.status).toBe(200);
    // 6 failures ≥ LOGIN_MAX_FAILS_PER_EMAIL (5): at least the first step of the wait (500 ms).
    expect(Date.now() - started).toBeGreaterThanOrEqual(500);
  });
});

describe("current-password checks", () => {
  it("a wrong current password 5 times, then the 6th change answers 429 even with the right one; 2FA disable shares the count", async () => {
    const p = await registerPerson("pwcheck");
    const { token } = await login(p.email, p.password);
    const change = (current: string) =>
      api("/api/me/password", { method: "PUT", token, body: { currentPassword: current, password: "Nova!Chave#2027y", confirmPassword: "Nova!Chave#2027y" } });
    for (let i = 0; i < 5; i++) expect((await change(`${WRONG}${i}`)).status, `attempt ${i + 1}`).toBe(401);
    const sixth = await change(p.password);
    expect(sixth.status).toBe(429);
    expect(sixth.body.error.code).toBe("TOO_MANY_ATTEMPTS");
    const disable = await api("/api/2fa/disable", { token, body: { password: p.password } });
    expect(disable.status).toBe(429);
    // Nothing changed: the old password still signs in.
    expect((await api("/api/auth/login", { body: { email: p.email, password: p.password }, ip: randomIp() })).status).toBe(200);
  });

  it("a right password starts the count afresh", async () => {
    const p = await registerPerson("pwreset");
    const { token } = await login(p.email, p.password);
    const disable = (pw: string) => api("/api/2fa/disable", { token, body: { password: pw } });
    for (let i = 0; i < 4; i++) expect((await disable(`${WRONG}${i}`)).status).toBe(401);
    expect((await disable(p.password)).status).toBe(200);
    for (let i = 0; i < 5; i++) expect((await disable(`${WRONG}${i}`)).status).toBe(401);
  });
});

describe("mail-sending requests per e-mail", () => {
  it("reset-link requests for one address: 5 answer 200 (from any IPs), the 6th 429", async () => {
    const p = await registerPerson("resetflood");
    for (let i = 0; i < 5; i++) expect((await api("/api/auth/reset-password", { body: { email: p.email }, ip: randomIp() })).status).toBe(200);
    const sixth = await api("/api/auth/reset-password", { body: { email: p.email }, ip: randomIp() });
    expect(sixth.status).toBe(429);
    expect(sixth.body.error.code).toBe("TOO_MANY_ATTEMPTS");
    const [{ n }] = await query<{ n: number }>("SELECT count(*)::int AS n FROM outbound_emails WHERE to_address = $1 AND subject = 'Redefinição de senha'", [p.email]);
    expect(n).toBe(5);
  });

  it("the same for an address nobody has (the limit says nothing about who exists)", async () => {
    const email = uniqueEmail("resetnobody");
    for (let i = 0; i < 5; i++) expect((await api("/api/auth/reset-password", { body: { email }, ip: randomIp() })).status).toBe(200);
    expect((await api("/api/auth/reset-password", { body: { email }, ip: randomIp() })).status).toBe(429);
  });

  it("verification re-sends for one address: 5 answer 200, the 6th 429", async () => {
    const p = await registerPerson("resendflood", { verify: false });
    for (let i = 0; i < 5; i++) expect((await api("/api/auth/resend-verification", { body: { email: p.email }, ip: randomIp() })).status).toBe(200);
    const sixth = await api("/api/auth/resend-verification", { body: { email: p.email }, ip: randomIp() });
    expect(sixth.status).toBe(429);
    expect(sixth.body.error.code).toBe("TOO_MANY_ATTEMPTS");
  });
});

describe("sign-up with an address that is taken", () => {
  it("the API answers exactly like a new sign-up, creates nothing, and the address's owner gets an e-mail over SMTP", async () => {
    const owner = await registerPerson("taken");
    const fresh = await api("/api/auth/register", { body: signUp(uniqueEmail("free")), ip: randomIp() });
    const taken = await api("/api/auth/register", { body: signUp(owner.email.toUpperCase()), ip: randomIp() });
    expect(taken.status).toBe(fresh.status);
    expect(taken.status).toBe(201);
    expect(taken.headers.get("location")).toBe(`/api/accounts/${taken.body.account.id}`);
    expect(fresh.headers.get("location")).toBe(`/api/accounts/${fresh.body.account.id}`);
    const shape = (b: any) => ({ user: Object.keys(b.user).sort(), account: Object.keys(b.account).sort(), keys: Object.keys(b).sort() });
    expect(shape(taken.body)).toEqual(shape(fresh.body));
    expect(taken.body.user.email).toBe(owner.email);
    expect(taken.body.user.id).not.toBe(owner.userId);
    expect(taken.body.account.id).not.toBe(owner.accountId);
    expect((await query("SELECT 1 FROM users WHERE email = $1", [owner.email])).length).toBe(1);
    expect((await query("SELECT 1 FROM users WHERE id = $1", [taken.body.user.id])).length).toBe(0);
    expect((await query("SELECT 1 FROM accounts WHERE name = 'Padaria Boa' AND id = $1", [taken.body.account.id])).length).toBe(0);

    const mail = await lastMailTo(owner.email);
    expect(mail.subject).toBe("Alguém tentou se cadastrar com o seu e-mail");
    expect(mail.text_body).toMatch(/https?:\/\/[^\s]+\/login/);
    await expect
      .poll(async () => (await receivedBy(owner.email)).some((m) => /Subject: =\?UTF-8\?|Subject: Algu/i.test(m.raw) && /\/login/.test(m.raw)), { timeout: 10_000 })
      .toBe(true);
    const [{ n }] = await query<{ n: number }>("SELECT count(*)::int AS n FROM audit_logs WHERE action = 'auth.register_existing' AND user_id = $1", [owner.userId]);
    expect(n).toBe(1);
  });

  it("the web form shows the same 'check your e-mail' screen for a taken address", async () => {
    const owner = await registerPerson("takenweb");
    const c = new WebClient();
    await c.get("/register");
    const res = await c.post("/register", {
      firstName: "A",
      lastName: "B",
      companyName: "C",
      email: owner.email,
      mobile: "",
      password: NEW_PASSWORD,
      confirmPassword: NEW_PASSWORD,
      acceptTerms: "on",
      locale: "pt-BR",
    });
    expect(res.status).toBe(302);
    expect(location(res)).toBe("/success");
    expect((await lastMailTo(owner.email)).subject).toBe("Alguém tentou se cadastrar com o seu e-mail");
  });
});

describe("per-IP limits (private stack with small limits)", () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack({
      env: { REGISTER_MAX_PER_IP: "3", RESET_MAX_PER_IP: "3", RESET_SUBMIT_MAX_PER_IP: "3", RESEND_VERIFICATION_MAX_PER_IP: "3" },
    });
  });
  afterAll(async () => {
    await stack?.stop();
  });

  const post = async (path: string, body: unknown, ip: string) => {
    const res = await fetch(new URL(path, stack.apiUrl), { method: "POST", headers: { "Content-Type": "application/json", "X-Forwarded-For": ip }, body: JSON.stringify(body) });
    return { status: res.status, body: (await res.json()) as any };
  };

  it("sign-ups from one IP: 3 pass, the 4th answers 429 and creates nothing; another IP still signs up", async () => {
    const ip = randomIp();
    for (let i = 0; i < 3; i++) expect((await post("/api/auth/register", signUp(uniqueEmail(`ipreg${i}`)), ip)).status).toBe(201);
    const email = uniqueEmail("ipreg4");
    const fourth = await post("/api/auth/register", signUp(email), ip);
    expect(fourth.status).toBe(429);
    expect(fourth.body.error.code).toBe("TOO_MANY_ATTEMPTS");
    expect((await stack.query("SELECT 1 FROM users WHERE email = $1", [email])).length).toBe(0);
    expect((await post("/api/auth/register", signUp(email), randomIp())).status).toBe(201);
  });

  it("reset links, reset submissions and verification re-sends from one IP over many addresses: the 4th answers 429", async () => {
    for (const [path, body] of [
      ["/api/auth/reset-password", (i: number) => ({ email: uniqueEmail(`ipreset${i}`) })],
      ["/api/auth/resend-verification", (i: number) => ({ email: uniqueEmail(`ipresend${i}`) })],
      ["/api/auth/reset-verification", (i: number) => ({ token: `not-a-token-${i}`, password: NEW_PASSWORD, confirmPassword: NEW_PASSWORD })],
    ] as const) {
      const ip = randomIp();
      const statuses: number[] = [];
      for (let i = 0; i < 4; i++) statuses.push((await post(path, body(i), ip)).status);
      expect(statuses.slice(3), path).toEqual([429]);
      expect(
        statuses.slice(0, 3).every((s) => s !== 429),
        path,
      ).toBe(true);
    }
  });
});

describe("the client's address behind a load balancer (TRUSTED_PROXIES)", () => {
  // Trusted: the loopback address web forwards from, and the balancers' network 10.250.0.0/16.
  // A socket from 127.0.0.2 is none of them: a client connecting directly.
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack({ env: { REGISTER_MAX_PER_IP: "3", TRUSTED_PROXIES: "127.0.0.1/32,::1/128,10.250.0.0/16" } });
  });
  afterAll(async () => {
    await stack?.stop();
  });

  /** A sign-up's status, with this X-Forwarded-For, from the socket address `from` (loopback 127.0.0.1 by default). */
  const register = (forwardedFor: string | null, from = "127.0.0.1") =>
    new Promise<number>((done, fail) => {
      const body = JSON.stringify(signUp(uniqueEmail("lb")));
      const req = request(
        new URL("/api/auth/register", stack.apiUrl),
        {
          method: "POST",
          localAddress: from,
          headers: { "Content-Type": "application/json", "Content-Length": Buffer.byteLength(body), ...(forwardedFor ? { "X-Forwarded-For": forwardedFor } : {}) },
        },
        (res) => {
          res.resume();
          res.on("end", () => done(res.statusCode ?? 0));
        },
      );
      req.on("error", fail);
      req.end(body);
    });

  it("one client through two balancers is one address: its 4th sign-up answers 429, whatever it prepends; another client is not affected", async () => {
    const client = `198.51.100.${Math.floor(Math.random() * 200) + 1}`;
    // client -> balancer 10.250.0.5 or .6 -> web (appends the balancer's address) -> api
    const statuses = [
      await register(`${client}, 10.250.0.5`),
      await register(`${client}, 10.250.0.6`),
      await register(`6.6.6.6, ${client}, 10.250.0.5`),
      await register(`${client}, 10.250.0.6`),
    ];
    expect(statuses).toEqual([201, 201, 201, 429]);
    expect(await register(`203.0.113.${Math.floor(Math.random() * 200) + 1}, 10.250.0.5`)).toBe(201);
  });

  it("a socket that is no trusted proxy is the client: the X-Forwarded-For it sends is not believed", async () => {
    const statuses = [];
    for (let i = 0; i < 4; i++) statuses.push(await register(`192.0.2.${i + 1}`, "127.0.0.2"));
    expect(statuses).toEqual([201, 201, 201, 429]);
  });

  it("a setting that is no address or block stops the process with a sentence naming it", () => {
    const r = spawnSync(resolve(__dirname, "../../node_modules/.bin/bun"), ["api/server.ts"], {
      cwd: resolve(__dirname, "../.."),
      env: { ...stack.env, API_PORT: "0", TRUSTED_PROXIES: "10.0.0.0/8,balancer.internal" },
      encoding: "utf8",
      timeout: 30_000,
    });
    expect(r.status).not.toBe(0);
    expect(`${r.stdout}${r.stderr}`).toContain('TRUSTED_PROXIES: "balancer.internal" is not an IP address or a CIDR block');
  });
});
