import { describe, expect, it } from "vitest";
import { inject } from "vitest";
import { WebClient, location, signIn } from "../support/web";

describe("the four processes", () => {
  it("web answers /health with plain OK", async () => {
    const res = await fetch(new URL("/health", inject("webUrl")));
    expect(res.status).toBe(200);
    expect(await res.text()).toBe("OK");
  });

  it("web forwards /api to the api process", async () => {
    const res = await fetch(new URL("/api/health", inject("webUrl")));
    expect(await res.text()).toBe("OK");
  });

  it("web forwards /realtime to the realtime process", async () => {
    const res = await fetch(new URL("/realtime/health", inject("webUrl")));
    expect(await res.text()).toBe("OK");
  });

  it("serves the OpenAPI page at /api/docs", async () => {
    const res = await fetch(new URL("/api/docs", inject("webUrl")));
    expect(res.status).toBe(200);
    const spec = await fetch(new URL("/api/docs/json", inject("webUrl"))).then((r) => r.json());
    expect(Object.keys(spec.paths)).toContain("/api/auth/login");
  });
});

describe("navigation guard", () => {
  it("sends a guest on a protected route to /login, keeping where they were going", async () => {
    const res = await new WebClient().get("/users");
    expect(res.status).toBe(302);
    expect(location(res)).toBe("/login?redirectTo=%2Fusers");
  });

  it("lets a guest open guest routes", async () => {
    for (const path of ["/login", "/register", "/experience", "/reset-password", "/about"]) {
      const res = await new WebClient().get(path);
      expect(res.status, path).toBe(200);
    }
  });

  it("shows the not-found screen for unknown paths of a signed-in person", async () => {
    const c = await signIn("owner@demo.example");
    const res = await c.get("/no/such/page");
    expect(res.status).toBe(404);
  });

  it("bounces a role to /403 when the policy denies the route", async () => {
    const c = await signIn("agent@demo.example");
    const res = await c.get("/users");
    expect(location(res)).toBe("/403");
    expect((await c.get("/403")).status).toBe(200);
  });
});

describe("CSRF", () => {
  it("refuses a cookie-authenticated POST without the token, and changes nothing", async () => {
    const c = new WebClient();
    await c.get("/login");
    const res = await c.post("/login", { email: "owner@demo.example", password: "Demo!Mensa#2026" }, { csrf: null });
    expect(res.status).toBe(403);
    expect(c.cookies.has("__session")).toBe(false);
  });

  it("refuses a token that does not match the cookie", async () => {
    const c = new WebClient();
    await c.get("/login");
    const res = await c.post("/login", { email: "owner@demo.example", password: "Demo!Mensa#2026" }, { csrf: "forged.value" });
    expect(res.status).toBe(403);
  });

  it("refuses a cross-site POST even with the token", async () => {
    const c = new WebClient(undefined, { "Sec-Fetch-Site": "cross-site" });
    await c.get("/login");
    const res = await c.post("/login", { email: "owner@demo.example", password: "Demo!Mensa#2026" });
    expect(res.status).toBe(403);
  });
});
