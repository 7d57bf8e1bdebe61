/** Google sign-in against a real OAuth 2.0 peer on loopback (authorization code + PKCE), on the web and through the API. */
import { createHash, randomBytes } from "node:crypto";
import { describe, expect, inject, it } from "vitest";
import { query, uniqueEmail } from "../support/db";
import { api } from "../support/api";
import { WebClient, location } from "../support/web";
import { OAUTH_CLIENT } from "../setup/oauth-peer";

/** Walk the browser's redirects: our /auth/google -> the provider (consenting as `email`) -> our callback. */
async function googleSignIn(email: string, c = new WebClient()) {
  await c.get("/login");
  const start = await c.post("/auth/google", {});
  expect(start.status).toBe(302);
  const authorize = new URL(start.headers.get("Location")!);
  expect(authorize.origin).toBe(inject("oauthUrl"));
  expect(authorize.searchParams.get("code_challenge_method")).toBe("S256");
  authorize.searchParams.set("as", email);
  const consent = await fetch(authorize, { redirect: "manual" });
  expect(consent.status).toBe(302);
  const back = new URL(consent.headers.get("Location")!);
  expect(back.pathname).toBe("/callback/google");
  const done = await c.get(back.pathname + back.search);
  return { c, done };
}

describe("Google sign-in on the web", () => {
  it("shows the Google button (configured) and not the Facebook one (not configured)", async () => {
    const { html } = await new WebClient().page("/login");
    expect(html).toContain('action="/auth/google"');
    expect(html).not.toContain('action="/auth/facebook"');
    expect((await new WebClient().post("/auth/facebook", {})).status).toBe(404);
  });

  it("creates a verified owner with an account on first sign-in, and signs the same person in next time", async () => {
    const email = uniqueEmail("google");
    const { c, done } = await googleSignIn(email);
    expect(location(done)).toBe("/");
    expect((await c.page("/")).html).toContain("Gabi");
    const rows = await query<{ google_id: string; verified: boolean; role: string }>(
      "SELECT u.google_id, u.email_verified_at IS NOT NULL AS verified, m.role FROM users u JOIN memberships m ON m.user_id = u.id WHERE u.email = $1",
      [email],
    );
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ verified: true, role: "owner" });
    const again = await googleSignIn(email);
    expect(location(again.done)).toBe("/");
    expect(await query("SELECT 1 FROM users WHERE email = $1", [email])).toHaveLength(1);
  });

  it("links Google to an existing person with the same e-mail instead of creating another", async () => {
    const email = uniqueEmail("linked");
    const pw = "Ligada!Conta#2026";
    const reg = new WebClient();
    await reg.get("/register");
    await reg.post("/register", { firstName: "Lia", lastName: "Prado", companyName: "Empresa Ligada", email, password: pw, confirmPassword: pw, acceptTerms: "on" });
    const { c, done } = await googleSignIn(email);
    expect(location(done)).toBe("/");
    expect((await c.page("/")).html).toContain("Empresa Ligada");
    const [row] = await query<{ google_id: string | null; n: number }>("SELECT max(google_id) AS google_id, count(*)::int AS n FROM users WHERE email = $1", [email]);
    expect(row.n).toBe(1);
    expect(row.google_id).toMatch(/^g-/);
    // the address was never verified by whoever registered it: their password no longer opens it
    const [{ hash }] = await query<{ hash: string | null }>("SELECT password_hash AS hash FROM users WHERE email = $1", [email]);
    expect(hash).toBeNull();
    const attacker = new WebClient();
    await attacker.get("/login");
    expect((await attacker.post("/login", { email, password: pw })).status).toBe(401);
  });

  it("a tampered state is refused and nobody is signed in", async () => {
    const c = new WebClient();
    await c.get("/login");
    const start = await c.post("/auth/google", {});
    const authorize = new URL(start.headers.get("Location")!);
    authorize.searchParams.set("as", uniqueEmail("tamper"));
    authorize.searchParams.set("state", "forged-state");
    const back = new URL((await fetch(authorize, { redirect: "manual" })).headers.get("Location")!);
    const res = await c.get(back.pathname + back.search);
    expect(location(res)).toBe("/login");
    expect(location(await c.get("/users"))).toMatch(/^\/login/);
  });
});

describe("Google sign-in through the API", () => {
  it("exchanges a provider access token for our {token, refresh_token}", async () => {
    const email = uniqueEmail("apigoogle");
    // What an integrator's app does with the provider: authorization code + PKCE, then the token endpoint.
    const verifier = randomBytes(32).toString("base64url");
    const authorize = new URL(`${inject("oauthUrl")}/authorize`);
    const redirect = "http://127.0.0.1/app-callback";
    for (const [k, v] of Object.entries({
      response_type: "code",
      client_id: OAUTH_CLIENT.id,
      redirect_uri: redirect,
      code_challenge: createHash("sha256").update(verifier).digest("base64url"),
      code_challenge_method: "S256",
      as: email,
    }))
      authorize.searchParams.set(k, v);
    const code = new URL((await fetch(authorize, { redirect: "manual" })).headers.get("Location")!).searchParams.get("code")!;
    const tokenRes = await fetch(`${inject("oauthUrl")}/token`, {
      method: "POST",
      body: new URLSearchParams({
        grant_type: "authorization_code",
        code,
        redirect_uri: redirect,
        code_verifier: verifier,
        client_id: OAUTH_CLIENT.id,
        client_secret: OAUTH_CLIENT.secret,
      }),
    }).then((r) => r.json());

    const res = await api("/api/auth/login/google", { body: { access_token: tokenRes.access_token } });
    expect(res.status).toBe(200);
    expect(res.body.token).toBeTruthy();
    expect(res.body.refresh_token).toBeTruthy();
    expect((await api("/api/me", { token: res.body.token })).body.email).toBe(email.toLowerCase());

    expect((await api("/api/auth/login/google", { body: { access_token: "not-a-provider-token" } })).status).toBe(401);
    expect((await api("/api/auth/login/facebook", { body: { access_token: "x" } })).status).toBe(404);
  });
});
