/**
 * Bad numbers in query strings (security issue 11, item 10): every list's page, limit and keyset id
 * goes through one parser (api/lib/validate.ts intParam), so "abc", "1e309", a 20-digit page and
 * negative values answer 422 VALIDATION naming the parameter with a translated message, never a 500
 * from NaN, Infinity or 1e20 reaching SQL; the web screens that read ?page= answer without a 500.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { api, giveOmni, login, randomIp, registerPerson, type Person } from "../support/api";
import { DEMO_PASSWORD, signIn, type WebClient } from "../support/web";
import { makeLiveSettings } from "../support/factories";

const BAD = ["abc", "1e309", "99999999999999999999", "-1", "1.5", "0x10"];

let owner: Person;
let token: string;
/** Platform staff: the only ones who list every account's moderation approvals. */
let staff: string;
let web: WebClient;
let roomId: string;
let webhookId: string;

beforeAll(async () => {
  owner = await registerPerson("qparams");
  await giveOmni(owner.accountId);
  ({ token } = await login(owner.email, owner.password));
  staff = (await login("staff@demo.example", DEMO_PASSWORD)).token;
  web = await signIn(owner.email, owner.password);
  const widgetKey = await makeLiveSettings(owner.accountId);
  const visitor = await api(`/api/widget/${widgetKey}/messages`, { body: { name: "Visitante", message: "Olá" }, ip: randomIp() });
  expect(visitor.status, JSON.stringify(visitor.body)).toBe(200);
  roomId = visitor.body.room.id;
  const hook = await api("/api/webhooks", { token, body: { url: "https://hooks.example.com/q", events: ["message.status_changed"] } });
  expect(hook.status, JSON.stringify(hook.body)).toBe(201);
  webhookId = hook.body.id ?? hook.body.data?.id;
  expect(webhookId).toBeTruthy();
});

/** Every list of the API with a numeric query parameter: [path, parameter, who asks]. */
const lists = (): Array<[string, string, string?]> => [
  ["/api/omni/rooms?type=all", "page"],
  ["/api/webchat/idle", "page"],
  ["/api/webchat/offlines", "page"],
  [`/api/omni/rooms/${roomId}/messages`, "limit"],
  ["/api/webchat/transcripts", "page"],
  ["/api/sms/messages", "page"],
  ["/api/sms/campaigns", "page"],
  ["/api/users", "page"],
  ["/api/words/approvals", "limit", staff],
  ["/api/urls/approvals", "limit", staff],
  ["/api/words", "limit", staff],
  [`/api/webhooks/${webhookId}/deliveries`, "page"],
  ["/api/optouts", "page"],
  ["/api/blacklist", "page"],
  ["/api/logs", "before"],
  ["/api/notifications", "before"],
];

describe("numeric query parameters of the API lists", () => {
  it("answer 422 VALIDATION naming the parameter, translated, for every bad number on every list (never 500)", async () => {
    const failures: string[] = [];
    for (const [path, param, as = token] of lists()) {
      const ok = await api(path, { token: as });
      if (ok.status !== 200) failures.push(`${path} without ${param}: ${ok.status} ${JSON.stringify(ok.body).slice(0, 200)}`);
      for (const bad of BAD) {
        const url = `${path}${path.includes("?") ? "&" : "?"}${param}=${encodeURIComponent(bad)}`;
        const res = await api(url, { token: as, lang: "en" });
        const named = res.body?.error?.fields?.[param];
        if (res.status !== 422 || res.body?.error?.code !== "VALIDATION" || !Array.isArray(named) || !named.length) {
          failures.push(`${url}: ${res.status} ${JSON.stringify(res.body).slice(0, 200)}`);
        } else if (!named.every((m: string) => /^(Must be an integer|Minimum value \d+|Maximum value \d+)$/.test(m))) {
          failures.push(`${url}: untranslated ${JSON.stringify(named)}`);
        }
      }
    }
    expect(failures).toEqual([]);
  });

  it("says which rule was broken: an integer, the minimum, the maximum", async () => {
    const at = async (v: string) => (await api(`/api/sms/messages?page=${v}`, { token, lang: "en" })).body.error.fields.page;
    expect(await at("abc")).toEqual(["Must be an integer"]);
    expect(await at("1e309")).toEqual(["Must be an integer"]);
    expect(await at("0")).toEqual(["Minimum value 1"]);
    expect(await at("99999999999999999999")).toEqual(["Maximum value 100000"]);
    const pt = await api(`/api/omni/rooms/${roomId}/messages?limit=500`, { token });
    expect(pt.body.error.fields.limit).toEqual(["Valor máximo 80"]);
  });

  it("still takes good numbers", async () => {
    expect((await api("/api/omni/rooms?type=all&page=2", { token })).body.page).toBe(2);
    expect((await api(`/api/omni/rooms/${roomId}/messages?limit=1`, { token })).body.data).toHaveLength(1);
    expect((await api("/api/sms/messages?page=3", { token })).status).toBe(200);
  });
});

describe("the web screens that read ?page=", () => {
  it("SMS history and the live desk and history answer without a 500 for a huge or infinite page", async () => {
    for (const path of ["/sms/history", "/live", "/live/history"]) {
      for (const bad of ["1e309", "99999999999999999999", "abc"]) {
        const res = await web.get(`${path}?page=${bad}`);
        expect(res.status, `${path}?page=${bad}`).toBeLessThan(500);
      }
    }
    // The SMS history shows why, on its form.
    const { html } = await web.page("/sms/history?page=99999999999999999999");
    expect(html).toContain("Valor máximo 100000");
  });
});
