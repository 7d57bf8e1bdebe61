/**
 * Short codes (spec sections 3 and 7: GET sms/short_codes, sms/short_codes/available, GET/PUT
 * sms/short_codes/{id}; screens /sms/short-codes and /sms/short-codes/{id}) over the real api and
 * web processes. Assignment is the platform's (admin area); here the fixture assigns codes to a
 * fresh account by SQL, as the platform would, and everything else goes through the product.
 */
import { randomInt } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { api, login, registerPerson, type Person } from "../support/api";
import { query } from "../support/db";
import { DEMO_PASSWORD, location, signIn } from "../support/web";
import { makeShortCode } from "../support/factories";

let owner: Person;
let token: string;
let codes: { active: string; inactive: string; noCarrier: string; other: string };
const number = () => String(randomInt(10_000_000, 99_999_999));

async function assign(accountId: string | null, opts: { nickname?: string; carriers?: string[]; status?: "active" | "inactive" } = {}) {
  return makeShortCode(accountId, { number: number(), nickname: opts.nickname ?? "", deliverability: opts.carriers ?? ["Vivo", "Claro"], status: opts.status ?? "active" });
}

beforeAll(async () => {
  owner = await registerPerson("shortcodes");
  token = (await login(owner.email, owner.password)).token;
  const other = await registerPerson("shortcodes-other");
  codes = {
    active: (await assign(owner.accountId, { nickname: "Avisos" })).id,
    inactive: (await assign(owner.accountId, { status: "inactive" })).id,
    noCarrier: (await assign(owner.accountId, { carriers: [] })).id,
    other: (await assign(other.accountId)).id,
  };
});

describe("short codes API", () => {
  it("lists the account's own codes with number, nickname, deliverability and status — never another account's", async () => {
    const res = await api("/api/sms/short_codes", { token });
    expect(res.status).toBe(200);
    const ids = res.body.data.map((c: { id: string }) => c.id).sort();
    expect(ids).toEqual([codes.active, codes.inactive, codes.noCarrier].sort());
    const active = res.body.data.find((c: { id: string }) => c.id === codes.active);
    expect(active).toMatchObject({ nickname: "Avisos", deliverability: ["Vivo", "Claro"], status: "active" });
    expect(active.number).toMatch(/^\d{8}$/);
  });

  it("available: only the active codes homologated with at least one carrier", async () => {
    const res = await api("/api/sms/short_codes/available", { token });
    expect(res.status).toBe(200);
    expect(res.body.data.map((c: { id: string }) => c.id)).toEqual([codes.active]);
  });

  it("one code: its own is found; another account's, a bad id and an unknown id are 404", async () => {
    expect((await api(`/api/sms/short_codes/${codes.active}`, { token })).body.nickname).toBe("Avisos");
    for (const id of [codes.other, "not-a-uuid", "00000000-0000-4000-8000-000000000000"]) {
      expect((await api(`/api/sms/short_codes/${id}`, { token })).status).toBe(404);
    }
  });

  it("PUT renames (trimmed); over 40 characters is 422 naming the field; another account's is 404", async () => {
    const ok = await api(`/api/sms/short_codes/${codes.noCarrier}`, { method: "PUT", token, body: { nickname: "  Cobrança  " } });
    expect(ok.status).toBe(200);
    expect(ok.body.nickname).toBe("Cobrança");
    const [row] = await query<{ nickname: string }>("SELECT nickname FROM short_codes WHERE id = $1", [codes.noCarrier]);
    expect(row.nickname).toBe("Cobrança");

    const bad = await api(`/api/sms/short_codes/${codes.noCarrier}`, { method: "PUT", token, body: { nickname: "x".repeat(41) }, lang: "en" });
    expect(bad.status).toBe(422);
    expect(JSON.stringify(bad.body)).toContain("nickname");
    expect((await query<{ nickname: string }>("SELECT nickname FROM short_codes WHERE id = $1", [codes.noCarrier]))[0].nickname).toBe("Cobrança");

    expect((await api(`/api/sms/short_codes/${codes.other}`, { method: "PUT", token, body: { nickname: "Meu" } })).status).toBe(404);
    const [other] = await query<{ nickname: string }>("SELECT nickname FROM short_codes WHERE id = $1", [codes.other]);
    expect(other.nickname).toBe("");
  });

  it("roles: the demo agent and developer are refused (not in their path allow-lists); the demo owner sees the seeded codes", async () => {
    for (const role of ["agent", "developer"]) {
      const t = (await login(`${role}@demo.example`, DEMO_PASSWORD)).token;
      expect((await api("/api/sms/short_codes", { token: t })).status).toBe(403);
    }
    const t = (await login("owner@demo.example", DEMO_PASSWORD)).token;
    const res = await api("/api/sms/short_codes", { token: t });
    expect(res.body.data.map((c: { number: string }) => c.number)).toEqual(["28282", "29094"]);
  });
});

describe("short code screens (no JavaScript)", () => {
  it("/sms/short-codes lists the codes with their carriers; the detail page saves the nickname and shows the translated error", async () => {
    const c = await signIn(owner.email, owner.password);
    const list = await c.page("/sms/short-codes");
    expect(list.res.status).toBe(200);
    expect(list.html).toContain('data-testid="short-codes"');
    expect(list.html).toContain("Avisos");
    expect(list.html).toContain("Vivo");
    expect(list.html).toContain("Inativo");
    expect(list.html).toContain(`/sms/short-codes/${codes.active}`);

    const saved = await c.post(`/sms/short-codes/${codes.active}`, { nickname: "Avisos de entrega" });
    expect(saved.status).toBe(302);
    expect(location(saved)).toBe(`/sms/short-codes/${codes.active}`);
    const detail = await c.page(`/sms/short-codes/${codes.active}`);
    expect(detail.html).toContain('value="Avisos de entrega"');
    expect(detail.html).toContain("salvo");

    const invalid = await c.post(`/sms/short-codes/${codes.active}`, { nickname: "y".repeat(41) });
    expect(invalid.status).toBe(422);
    expect(await invalid.text()).toContain("Tamanho máximo 40");
    expect((await query<{ nickname: string }>("SELECT nickname FROM short_codes WHERE id = $1", [codes.active]))[0].nickname).toBe("Avisos de entrega");

    expect((await c.post(`/sms/short-codes/${codes.other}`, { nickname: "Meu" })).status).toBe(404);
    expect((await c.page(`/sms/short-codes/${codes.other}`)).res.status).toBe(404);
  });
});
