/** The JWT API's sign-in: credentials, refresh rotation with theft detection, TOTP, rate limits. */
import * as OTPAuth from "otpauth";
import { afterAll, describe, expect, it } from "vitest";
import { inject } from "vitest";
import { query } from "../support/db";
import { DEMO_PASSWORD } from "../support/web";
import { api, login, randomIp, registerPerson } from "../support/api";
import { openRedis, keysOf } from "../support/redis";

const redis = openRedis(inject("redisUrl"));
afterAll(async () => {
  await redis.quit();
});

describe("401 answers", () => {
  it("say how to authenticate: WWW-Authenticate Bearer, with error=invalid_token when a token was refused", async () => {
    const none = await api("/api/accounts/info");
    expect(none.status).toBe(401);
    expect(none.headers.get("WWW-Authenticate")).toBe('Bearer realm="mensageria"');
    const forged = await api("/api/accounts/info", { token: "not.a.token" });
    expect(forged.status).toBe(401);
    expect(forged.headers.get("WWW-Authenticate")).toBe('Bearer realm="mensageria", error="invalid_token"');
  });
});

describe("POST /api/auth/login", () => {
  it("answers an access and a refresh token that work", async () => {
    const res = await api("/api/auth/login", { body: { email: "owner@demo.example", password: DEMO_PASSWORD }, ip: randomIp() });
    expect(res.status).toBe(200);
    expect(res.body.token).toMatch(/^ey/);
    expect(res.body.refresh_token).toMatch(/^ey/);
    const info = await api("/api/accounts/info", { token: res.body.token });
    expect(info.status).toBe(200);
    expect(info.body.name).toBe("Demo Comércio Ltda");
    expect(info.body.role).toBe("owner");
  });

  it("refuses a wrong password with 401 INVALID_CREDENTIALS, translated by Accept-Language", async () => {
    const p = await registerPerson("wrongpw");
    const pt = await api("/api/auth/login", { body: { email: p.email, password: "Nope!Wrong#123" }, ip: randomIp() });
    expect(pt.status).toBe(401);
    expect(pt.body.error.code).toBe("INVALID_CREDENTIALS");
    expect(pt.body.error.message).toBe("E-mail ou senha inválidos");
    expect(pt.body.token).toBeUndefined();
    const en = await api("/api/auth/login", { body: { email: p.email, password: "Nope!Wrong#123" }, ip: randomIp(), lang: "en" });
    expect(en.status).toBe(401);
    expect(en.body.error.message).toBe("Invalid e-mail or password");
  });

  it("refuses a person whose e-mail is not verified yet", async () => {
    const p = await registerPerson("unverified", { verify: false });
    const res = await api("/api/auth/login", { body: { email: p.email, password: p.password }, ip: randomIp(), lang: "en" });
    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe("EMAIL_NOT_VERIFIED");
    expect(res.body.error.message).toBe("E-mail not verified");
  });

  it("answers 422 with field errors when the body is incomplete", async () => {
    const res = await api("/api/auth/login", { body: { email: "x@test.example" }, lang: "en", ip: randomIp() });
    expect(res.status).toBe(422);
    expect(res.body.error.fields.password).toEqual(["Required field"]);
  });
});

describe("POST /api/auth/logout", () => {
  it("revokes the refresh token (or all of them), so it can no longer refresh", async () => {
    const p = await registerPerson("apilogout");
    const a = await login(p.email, p.password);
    const b = await login(p.email, p.password);
    const out = await api("/api/auth/logout", { body: { refresh_token: a.refresh_token } });
    expect(out.status).toBe(200);
    expect(out.body.revoked).toBe(1);
    expect((await api("/api/auth/token", { token: a.refresh_token })).status).toBe(401);
    const c = await login(p.email, p.password);
    const all = await api("/api/auth/logout", { body: { refresh_token: c.refresh_token, all: true } });
    expect(all.body.revoked).toBeGreaterThanOrEqual(1);
    expect((await api("/api/auth/token", { token: c.refresh_token })).status).toBe(401);
    void b;
    expect((await api("/api/auth/logout", { body: { refresh_token: "not-a-token" } })).status).toBe(401);
  });
});

describe("GET /api/auth/token (refresh rotation)", () => {
  it("answers a new pair, and a reused refresh token revokes the newer one too", async () => {
    const p = await registerPerson("refresh");
    const first = await login(p.email, p.password);

    const second = await api("/api/auth/token", { token: first.refresh_token });
    expect(second.status).toBe(200);
    expect(second.body.refresh_token).not.toBe(first.refresh_token);
    expect((await api("/api/me", { token: second.body.token })).status).toBe(200);

    // The old refresh token again: theft detected.
    const reuse = await api("/api/auth/token", { token: first.refresh_token });
    expect(reuse.status).toBe(401);
    expect(reuse.body.error.code).toBe("INVALID_TOKEN");
    // ...and the newer one, never used, is revoked with it.
    const newer = await api("/api/auth/token", { token: second.body.refresh_token });
    expect(newer.status).toBe(401);
    const [{ open }] = await query<{ open: string }>("SELECT count(*) AS open FROM refresh_tokens WHERE user_id = $1 AND revoked_at IS NULL", [p.userId]);
    expect(Number(open)).toBe(0);
  });

  it("does not accept an access token as a refresh token, nor a refresh token as an access token", async () => {
    const p = await registerPerson("tokentype");
    const pair = await login(p.email, p.password);
    expect((await api("/api/auth/token", { token: pair.token })).status).toBe(401);
    const asAccess = await api("/api/accounts/info", { token: pair.refresh_token });
    expect(asAccess.status).toBe(401);
    expect(asAccess.body.error.code).toBe("UNAUTHENTICATED");
    // The refresh token was not spent by those attempts.
    expect((await api("/api/auth/token", { token: pair.refresh_token })).status).toBe(200);
  });
});

describe("POST /api/auth/token (OAuth 2.0 refresh, RFC 6749 section 6)", () => {
  const grant = (body: Record<string, string>, form: boolean) =>
    fetch(new URL("/api/auth/token", inject("apiUrl")), {
      method: "POST",
      headers: { "Content-Type": form ? "application/x-www-form-urlencoded" : "application/json", "Accept-Language": "en" },
      body: form ? new URLSearchParams(body).toString() : JSON.stringify(body),
    }).then(async (r) => ({ status: r.status, headers: r.headers, body: await r.json() }));

  it("takes the refresh token in a JSON or a form body and answers the RFC fields plus the original ones", async () => {
    const p = await registerPerson("oauthrefresh");
    const first = await login(p.email, p.password);
    for (const [form, from] of [
      [false, first.refresh_token!],
      [true, ""],
    ] as const) {
      const raw = from || (await login(p.email, p.password)).refresh_token!;
      const res = await grant({ grant_type: "refresh_token", refresh_token: raw }, form);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body).toMatchObject({
        token_type: "Bearer",
        expires_in: expect.any(Number),
        access_token: expect.stringMatching(/^ey/),
        refresh_token: expect.stringMatching(/^ey/),
      });
      expect(res.body.token).toBe(res.body.access_token);
      expect(res.body.refresh_token).not.toBe(raw);
      expect(res.headers.get("cache-control")).toBe("no-store");
      expect((await api("/api/me", { token: res.body.access_token })).status).toBe(200);
      // Rotated: the same refresh token a second time is refused.
      expect((await grant({ grant_type: "refresh_token", refresh_token: raw }, form)).status).toBe(401);
    }
  });

  it("names the field when grant_type or refresh_token is wrong or missing, and the GET with bearer still works", async () => {
    const p = await registerPerson("oauthbadgrant");
    const pair = await login(p.email, p.password);
    const wrongGrant = await grant({ grant_type: "password", refresh_token: pair.refresh_token! }, true);
    expect(wrongGrant.status).toBe(422);
    expect(Object.keys(wrongGrant.body.error.fields)).toEqual(["grant_type"]);
    const missing = await grant({ grant_type: "refresh_token" }, false);
    expect(missing.status).toBe(422);
    expect(missing.body.error.fields.refresh_token).toEqual(["Required field"]);
    // Neither attempt spent the token; the original form answers the same fields.
    const old = await api("/api/auth/token", { token: pair.refresh_token });
    expect(old.status).toBe(200);
    expect(old.body).toMatchObject({ token_type: "Bearer", access_token: old.body.token, refresh_token: expect.stringMatching(/^ey/) });
  });
});

describe("two-factor authentication", () => {
  it("enrols, then requires the code at sign-in; a code works once", async () => {
    const p = await registerPerson("totp");
    const full = await login(p.email, p.password);

    const enrol = await api("/api/2fa/enrol", { method: "POST", token: full.token });
    expect(enrol.status).toBe(200);
    expect(enrol.body.uri).toMatch(/^otpauth:\/\/totp\//);
    expect(enrol.body.qr).toMatch(/^data:image\/png;base64,/);
    const totp = new OTPAuth.TOTP({ algorithm: "SHA1", digits: 6, period: 30, secret: OTPAuth.Secret.fromBase32(enrol.body.secret) });

    // Nothing is on until confirmed; a wrong code does not switch it on.
    const bad = await api("/api/2fa/enrol/confirm", { token: full.token, body: { secret: enrol.body.secret, code: "000000" === totp.generate() ? "111111" : "000000" } });
    expect(bad.status).toBe(401);
    expect((await query("SELECT 1 FROM users WHERE id = $1 AND totp_enabled_at IS NOT NULL", [p.userId])).length).toBe(0);

    const ok = await api("/api/2fa/enrol/confirm", { token: full.token, body: { secret: enrol.body.secret, code: totp.generate() } });
    expect(ok.status).toBe(200);
    const [row] = await query<{ totp_secret: string }>("SELECT totp_secret FROM users WHERE id = $1 AND totp_enabled_at IS NOT NULL", [p.userId]);
    expect(row.totp_secret).toBeTruthy();
    expect(row.totp_secret).not.toContain(enrol.body.secret); // sealed at rest
    // with 2FA on, a session alone cannot swap in another authenticator app
    const reEnrol = await api("/api/2fa/enrol", { method: "POST", token: full.token });
    expect(reEnrol.status).toBe(409);
    expect(reEnrol.body.error.code).toBe("TOTP_ALREADY_ENABLED");

    // Sign-in now gives a pending token that opens nothing but the second-factor step.
    const ip = randomIp();
    const pending = await api("/api/auth/login", { body: { email: p.email, password: p.password }, ip });
    expect(pending.status).toBe(200);
    expect(pending.body.refresh_token).toBeNull();
    expect(pending.body.preferred_tfa).toBe("totp");
    const blocked = await api("/api/accounts/info", { token: pending.body.token });
    expect(blocked.status).toBe(403);
    expect(blocked.body.error.code).toBe("2FA_NOT_CHECKED");
    expect((await api("/api/2fa/preferred", { token: pending.body.token })).body.preferred_tfa).toBe("totp");

    const wrong = await api("/api/2fa/verify", { token: pending.body.token, body: { code: "000000" === totp.generate() ? "111111" : "000000" }, ip });
    expect(wrong.status).toBe(401);
    expect(wrong.body.error.code).toBe("INVALID_TOTP");

    // The next time step's code (the current one was spent by the enrolment).
    const code = totp.generate({ timestamp: Date.now() + 30_000 });
    const verified = await api("/api/2fa/verify", { token: pending.body.token, body: { code }, ip });
    expect(verified.status).toBe(200);
    expect(verified.body.refresh_token).toMatch(/^ey/);
    const info = await api("/api/accounts/info", { token: verified.body.token });
    expect(info.status).toBe(200);
    expect(info.body.id).toBe(p.accountId);

    // The same code cannot be used twice, even with a new pending token.
    const again = await api("/api/auth/login", { body: { email: p.email, password: p.password }, ip });
    const replay = await api("/api/2fa/verify", { token: again.body.token, body: { code }, ip });
    expect(replay.status).toBe(401);
    expect(replay.body.error.code).toBe("INVALID_TOTP");

    // Turning it off needs the password.
    const noPw = await api("/api/2fa/disable", { token: verified.body.token, body: { password: "Wrong!Pass#987" } });
    expect(noPw.status).toBe(401);
    expect(noPw.body.error.code).toBe("INVALID_PASSWORD");
    const off = await api("/api/2fa/disable", { token: verified.body.token, body: { password: p.password } });
    expect(off.status).toBe(200);
    const plain = await login(p.email, p.password);
    expect(plain.refresh_token).toMatch(/^ey/);

    const events = await api("/api/users/sessions", { token: plain.token });
    expect(events.status).toBe(200);
    const actions = events.body.data.map((e: { action: string }) => e.action);
    expect(actions).toEqual(expect.arrayContaining(["auth.2fa_enabled", "auth.2fa_failed", "auth.2fa_disabled", "auth.login", "auth.login_password_ok"]));
    expect(events.body.data[0].ip).toBeTruthy();
    expect(events.body.data.length).toBeLessThanOrEqual(20);
    expect(events.body.next_cursor).toBeNull();
  });
});

describe("sign-in rate limits", () => {
  it("locks an e-mail from one IP after 5 failures: the 6th attempt from there answers 429 even with the right password", async () => {
    const p = await registerPerson("ratelimit");
    const ip = randomIp();
    for (let i = 0; i < 5; i++) {
      const res = await api("/api/auth/login", { body: { email: p.email, password: `Wrong!Pass#${i}x9` }, ip });
      expect(res.status, `attempt ${i + 1}`).toBe(401);
    }
    // The lock is per (e-mail, IP): another IP is not locked out (tests/integration/auth-limits.test.ts).
    const res = await api("/api/auth/login", { body: { email: p.email, password: p.password }, ip, lang: "en" });
    expect(res.status).toBe(429);
    expect(res.body.error.code).toBe("TOO_MANY_ATTEMPTS");
    expect(res.body.error.message).toMatch(/Try again in \d+ min/);
    expect(Number(res.headers.get("Retry-After"))).toBeGreaterThan(0);
    expect(res.body.token).toBeUndefined();
  });

  it("counts failures per client IP (X-Forwarded-For from the loopback proxy) and enforces the IP limit", async () => {
    const prefix = inject("redisPrefix");
    const ip = randomIp();
    const ipKey = keysOf(prefix).rateLimit("login-ip", ip);
    for (let i = 0; i < 3; i++) {
      const res = await api("/api/auth/login", { body: { email: `nobody.${i}.${Date.now()}@test.example`, password: "Wrong!Pass#54x" }, ip });
      expect(res.status).toBe(401);
    }
    expect(await redis.get(ipKey)).toBe("3");
    expect(await redis.ttl(ipKey)).toBeGreaterThan(0);

    // With the address at the limit (LOGIN_MAX_FAILS_PER_IP=1000 in tests), even a right password is refused from it…
    const p = await registerPerson("iplimit");
    await redis.set(ipKey, "1000", "EX", 600);
    const blocked = await api("/api/auth/login", { body: { email: p.email, password: p.password }, ip });
    expect(blocked.status).toBe(429);
    expect(blocked.body.error.code).toBe("TOO_MANY_ATTEMPTS");
    // …while the same person from another address gets in.
    const other = await api("/api/auth/login", { body: { email: p.email, password: p.password }, ip: randomIp() });
    expect(other.status).toBe(200);
    await redis.del(ipKey);
  });
});
