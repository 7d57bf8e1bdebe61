/**
 * Security issue 11, items 9 and 11: the public widget's rate limits on a private stack started
 * with low limits (the run's shared stack raises them: every test calls from loopback). The client
 * IP is the last X-Forwarded-For hop our own web proxy appends; a call from loopback without one
 * counts as 127.0.0.1.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startStack, type Stack } from "../support/stack";
import { makeAccount, makeLiveSettings } from "../support/factories";

let stack: Stack;
let widgetKey: string;
let otherKey: string;

const LIMITS = { WIDGET_CALLS_PER_IP_PER_MINUTE: "6", WIDGET_CALLS_PER_KEY_PER_MINUTE: "10", WIDGET_STARTS_PER_IP_PER_HOUR: "2" };

/** A widget call from a client address (as our proxy forwards it). */
async function call(path: string, ip: string, body?: unknown) {
  const res = await fetch(new URL(path, stack.apiUrl), {
    method: body === undefined ? "GET" : "POST",
    headers: { "X-Forwarded-For": ip, "Accept-Language": "en", ...(body === undefined ? {} : { "Content-Type": "application/json" }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return {
    status: res.status,
    retryAfter: res.headers.get("Retry-After"),
    cors: res.headers.get("Access-Control-Allow-Origin"),
    body: (await res.json().catch(() => null)) as any,
  };
}

async function accountWithKey(email: string) {
  const a = { id: await makeAccount({ name: email }, stack.query) };
  return { accountId: a.id, key: await makeLiveSettings(a.id, {}, stack.query) };
}

const rooms = async (key: string) =>
  Number((await stack.query<{ n: string }>(`SELECT count(*) AS n FROM live_rooms r JOIN live_settings s ON s.account_id = r.account_id WHERE s.widget_key = $1`, [key]))[0].n);

beforeAll(async () => {
  stack = await startStack({ env: LIMITS });
  widgetKey = (await accountWithKey("limits-a")).key;
  otherKey = (await accountWithKey("limits-b")).key;
}, 120_000);

afterAll(async () => {
  await stack?.stop();
});

describe("public widget rate limits", () => {
  it("per client IP: the 7th call in a minute is 429 (translated, Retry-After, CORS); another IP is not affected", async () => {
    const ip = "203.0.113.10";
    for (let i = 0; i < 6; i++) expect((await call(`/api/widget/${widgetKey}/config`, ip)).status).toBe(200);
    const over = await call(`/api/widget/${widgetKey}/config`, ip);
    expect(over.status).toBe(429);
    expect(over.body.error.code).toBe("TOO_MANY_ATTEMPTS");
    expect(over.body.error.message).toBe("Too many attempts. Try again in 1 min.");
    expect(Number(over.retryAfter)).toBeGreaterThan(0);
    expect(over.cors).toBe("*");
    // Every widget route shares the budget, the upload route too (before its body is read).
    expect((await call(`/api/widget/${widgetKey}/messages`, ip, { name: "V", message: "oi" })).status).toBe(429);
    expect((await fetch(new URL(`/api/widget/${widgetKey}/upload`, stack.apiUrl), { method: "POST", headers: { "X-Forwarded-For": ip }, body: new FormData() })).status).toBe(429);
    // Only our proxy's hop counts: a client prepending its own X-Forwarded-For is still the same address.
    expect((await call(`/api/widget/${widgetKey}/config`, `198.51.100.77, ${ip}`)).status).toBe(429);
    expect((await call(`/api/widget/${widgetKey}/config`, "203.0.113.11")).status).toBe(200);
  });

  it("per widget key: the 11th call in a minute from any number of addresses is 429; another key is not affected", async () => {
    const key = (await accountWithKey("limits-c")).key;
    for (let i = 0; i < 10; i++) expect((await call(`/api/widget/${key}/config`, `192.0.2.${i + 1}`)).status).toBe(200);
    expect((await call(`/api/widget/${key}/config`, "192.0.2.200")).status).toBe(429);
    expect((await call(`/api/widget/${otherKey}/config`, "192.0.2.201")).status).toBe(200);
  });

  it("new conversations per client IP per hour: the 3rd is 429 and creates no room; a returning visitor still writes", async () => {
    const key = (await accountWithKey("limits-d")).key;
    const ip = "198.51.100.20";
    const first = await call(`/api/widget/${key}/messages`, ip, { name: "V1", message: "oi" });
    expect(first.status).toBe(200);
    expect((await call(`/api/widget/${key}/messages`, ip, { name: "V2", message: "oi" })).status).toBe(200);
    const third = await call(`/api/widget/${key}/messages`, ip, { name: "V3", message: "oi" });
    expect(third.status).toBe(429);
    expect(third.body.error.message).toMatch(/^Too many attempts\. Try again in (59|60) min\.$/);
    expect(await rooms(key)).toBe(2);
    const again = await call(`/api/widget/${key}/messages`, ip, { visitor_id: first.body.visitor_id, visitor_token: first.body.visitor_token, message: "ainda estou aqui" });
    expect(again.status).toBe(200);
  });
});
