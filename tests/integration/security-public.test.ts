/**
 * Security issue 11, the public edges (items 8, 9, 14, 15) on the real web server, API, PostgreSQL
 * and Redis: whitelabel hosts never take a platform host and are claimed once; request bodies other
 * than uploads are at most JSON_BODY_LIMIT_KB (1 MB) in the web proxy, the Remix forms and the API;
 * a live file follows its room's visibility; the widget's visitor fields and a contact's website
 * are validated with translated errors naming the field.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { inject } from "vitest";
import { api, giveOmni, login, registerPerson, type Person } from "../support/api";
import { query } from "../support/db";
import { addMember, makeLiveSettings, makeWhitelabel, setAccount, setLiveRoom, sql } from "../support/factories";

const MB = 1024 * 1024;
const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.from("IHDR-fake-png-body")]);
const pdf = (size: number) => Buffer.concat([Buffer.from("%PDF-1.4\n"), Buffer.alloc(Math.max(0, size - 9), 0x20)]);

let owner: Person;
let token: string;
let widgetKey: string;

const as = (path: string, opts: Parameters<typeof api>[1] = {}) => api(path, { ...opts, token, account: owner.accountId });
const roomCount = async () => Number((await query<{ n: string }>(`SELECT count(*) AS n FROM live_rooms WHERE account_id = $1`, [owner.accountId]))[0].n);

/** A raw POST to the web server or the API (any body, any headers), the answer parsed when JSON. */
async function raw(base: "webUrl" | "apiUrl", path: string, init: RequestInit & { duplex?: "half" }) {
  const res = await fetch(new URL(path, inject(base)), { redirect: "manual", ...init } as RequestInit);
  const text = await res.text();
  let body: any = text;
  try {
    body = JSON.parse(text);
  } catch {}
  return { status: res.status, body };
}

/** A JSON text of about `bytes` bytes that is a valid widget first message. */
const bigMessage = (bytes: number) => JSON.stringify({ name: "Visitante", message: "oi", padding: "x".repeat(bytes) });

/** The same bytes sent chunked (no Content-Length): the limit must hold while reading. */
function chunked(text: string) {
  const bytes = new TextEncoder().encode(text);
  let at = 0;
  return new ReadableStream<Uint8Array>({
    pull(c) {
      if (at >= bytes.length) return c.close();
      c.enqueue(bytes.subarray(at, (at += 64 * 1024)));
    },
  });
}

async function upload(base: "webUrl" | "apiUrl", fields: Record<string, string>, file: { bytes: Buffer; name: string }) {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.set(k, v);
  form.set("file", new Blob([new Uint8Array(file.bytes)]), file.name);
  return raw(base, `/api/widget/${widgetKey}/upload`, { method: "POST", body: form, headers: { "Accept-Language": "en" } });
}

beforeAll(async () => {
  owner = await registerPerson("sec-public");
  await giveOmni(owner.accountId);
  ({ token } = await login(owner.email, owner.password));
  widgetKey = await makeLiveSettings(owner.accountId, { defaultCapacity: 50 });
});

describe("whitelabel hosts (item 8)", () => {
  async function reseller(tag: string) {
    const p = await registerPerson(tag);
    await setAccount(p.accountId, { type: "reseller" });
    const { token: t } = await login(p.email, p.password);
    return (host: string) => api("/api/admin/whitelabel", { method: "PUT", token: t, account: p.accountId, lang: "en", body: { name: `Marca ${tag}`, color: "#123456", host } });
  }

  it("the platform's own hosts (APP_URL's, UNSUBSCRIBE_HOST) are refused with a translated error naming the host", async () => {
    const save = await reseller("wl-reserved");
    const appHost = new URL(inject("webUrl")).hostname; // the run's APP_URL is http://localhost:<port>
    for (const host of ["unsubscribe.localhost", "Unsubscribe.LOCALHOST", appHost, appHost.toUpperCase()]) {
      const res = await save(host);
      expect(res.status, host).toBe(422);
      expect(res.body.error.fields.host, host).toEqual(["This domain belongs to the platform"]);
    }
    expect((await save("minha-marca-reservada.localhost")).status).toBe(200);
  });

  it("a host is claimed once: a second reseller asking for it in other letter case is refused", async () => {
    const host = `marca-${Date.now().toString(36)}.example`;
    expect((await (await reseller("wl-first"))(host)).status).toBe(200);
    const second = await (await reseller("wl-second"))(host.toUpperCase());
    expect(second.status).toBe(422);
    expect(second.body.error.fields.host).toEqual(["This domain is already in use"]);
    expect(await query(`SELECT 1 FROM whitelabels WHERE lower(host) = $1`, [host])).toHaveLength(1);
  });

  it("a brand is never served on a platform host, even from a row claiming it", async () => {
    const p = await registerPerson("wl-legacy");
    const w = { id: await makeWhitelabel({ name: "Sequestro", color: "#000000", host: "unsubscribe.localhost", accountId: p.accountId }) };
    try {
      expect((await api("/api/whitelabel/current", { host: "unsubscribe.localhost" })).body.brand).toBeNull();
    } finally {
      await query(`DELETE FROM whitelabels WHERE id = $1`, [w.id]);
    }
  });
});

describe("request body limits (item 9)", () => {
  it("a 2 MB JSON body to the public widget is 413 (translated), through the web server and at the API, declared or chunked, and no room is created", async () => {
    const before = await roomCount();
    const body = bigMessage(2 * MB);
    for (const base of ["webUrl", "apiUrl"] as const) {
      const declared = await raw(base, `/api/widget/${widgetKey}/messages`, { method: "POST", body, headers: { "Content-Type": "application/json", "Accept-Language": "en" } });
      expect(declared.status, base).toBe(413);
      expect(declared.body.error, base).toMatchObject({ code: "BODY_TOO_LARGE", message: "The request is too large: at most 1,024 KB" });
      const streamed = await raw(base, `/api/widget/${widgetKey}/messages`, {
        method: "POST",
        body: chunked(body),
        duplex: "half",
        headers: { "Content-Type": "application/json" },
      });
      expect(streamed.status, base).toBe(413);
    }
    expect(await roomCount()).toBe(before);
    // Just under the limit is still a message.
    const ok = await raw("webUrl", `/api/widget/${widgetKey}/messages`, { method: "POST", body: bigMessage(900 * 1024), headers: { "Content-Type": "application/json" } });
    expect(ok.status).toBe(200);
    expect(await roomCount()).toBe(before + 1);
  });

  it("an authenticated JSON route and a multipart body sent to a route that takes no files are limited too", async () => {
    const contact = JSON.stringify({ first_name: "Grande", mobile_number: "11912345678", description: "x".repeat(2 * MB) });
    const res = await raw("apiUrl", "/api/contacts", {
      method: "POST",
      body: contact,
      headers: { "Content-Type": "application/json", Authorization: `Bearer ${token}`, "X-Account-Id": owner.accountId, "Accept-Language": "pt-BR" },
    });
    expect(res.status).toBe(413);
    expect(res.body.error.message).toBe("A requisição é grande demais: no máximo 1.024 KB");
    expect(await query(`SELECT 1 FROM contacts WHERE account_id = $1 AND first_name = 'Grande'`, [owner.accountId])).toHaveLength(0);
    const form = new FormData();
    form.set("name", "Visitante");
    form.set("message", "oi");
    form.set("file", new Blob([new Uint8Array(pdf(2 * MB))]), "grande.pdf");
    expect((await raw("apiUrl", `/api/widget/${widgetKey}/messages`, { method: "POST", body: form })).status).toBe(413);
  });

  it("a Remix form post (urlencoded) above the limit is 413 before the action reads it", async () => {
    const res = await raw("webUrl", "/login", {
      method: "POST",
      body: `email=a%40b.c&password=${"x".repeat(2 * MB)}`,
      headers: { "Content-Type": "application/x-www-form-urlencoded", "Accept-Language": "en" },
    });
    expect(res.status).toBe(413);
    expect(res.body.error.code).toBe("BODY_TOO_LARGE");
  });

  it("a file above 1 MB still goes to an upload route, through the web server and at the API", async () => {
    for (const base of ["webUrl", "apiUrl"] as const) {
      const res = await upload(base, { name: "Visitante Arquivo", message: "segue" }, { bytes: pdf(3 * MB), name: "contrato.pdf" });
      expect(res.status, base).toBe(200);
      expect(res.body.message.attachments[0]).toMatchObject({ type: "document", size: 3 * MB });
    }
  });
});

describe("live files follow their room (item 14)", () => {
  it("an agent refused the room (403) is refused its file; the attending agent, the supervisor and a signed URL keep it", async () => {
    const agent = async (tag: string) => {
      const p = await registerPerson(tag);
      await addMember(owner.accountId, p.userId, { role: "agent", isAgent: true });
      const { token: t } = await login(p.email, p.password);
      return { p, get: (path: string) => fetch(new URL(path, inject("apiUrl")), { headers: { Authorization: `Bearer ${t}`, "X-Account-Id": owner.accountId } }) };
    };
    const [ana, bruno] = [await agent("file-ana"), await agent("file-bruno")];
    const up = await upload("apiUrl", { name: "Visitante Privado", message: "meu contrato" }, { bytes: PNG, name: "documento.png" });
    expect(up.status).toBe(200);
    const uri: string = up.body.message.attachments[0].uri;
    const roomId: string = up.body.room.id;
    // Ana attends the room: it is hers, and not Bruno's.
    await setLiveRoom(roomId, { status: "OPEN", agentId: ana.p.userId, assignedAt: sql("now()") });
    expect((await bruno.get(`/api/omni/rooms/${roomId}`)).status).toBe(403);
    expect((await bruno.get(uri)).status).toBe(403);
    expect((await bruno.get(`${uri}/url`)).status).toBe(403);
    expect((await ana.get(uri)).status).toBe(200);
    const byOwner = await fetch(new URL(uri, inject("apiUrl")), { headers: { Authorization: `Bearer ${token}`, "X-Account-Id": owner.accountId } });
    expect(byOwner.status).toBe(200);
    const signed = await (await ana.get(`${uri}/url`)).json();
    expect((await fetch(new URL(signed.url, inject("apiUrl")))).status).toBe(200);
  });
});

describe("visitor fields and contact websites (item 15)", () => {
  it("the widget's first message with a 5,000-character e-mail, a 5,000-digit phone and a U+202E name is 422 naming each field, and nothing is stored", async () => {
    const before = await roomCount();
    const res = await api(`/api/widget/${widgetKey}/messages`, {
      lang: "en",
      body: { name: "Maria \u202Eadmin", email: `${"a".repeat(5000)}`, phone: "9".repeat(5000), message: "oi" },
    });
    expect(res.status).toBe(422);
    expect(res.body.error.fields).toEqual({ name: ["Remove invisible or control characters"], email: ["Maximum length 254"], phone: ["Invalid phone number"] });
    for (const [field, value, message] of [
      ["email", "sem-arroba.example", "Invalid e-mail"],
      ["name", "x".repeat(5000), "Maximum length 120"],
      ["name", "Ana\u2066Admin\u2069", "Remove invisible or control characters"],
    ] as const) {
      const one = await api(`/api/widget/${widgetKey}/messages`, { lang: "en", body: { name: "Visitante", [field]: value, message: "oi" } });
      expect(one.status, value.slice(0, 20)).toBe(422);
      expect(one.body.error.fields, value.slice(0, 20)).toEqual({ [field]: [message] });
    }
    // The same rules on the file route, before the file is stored.
    const file = await upload("apiUrl", { name: "Visitante", phone: "9".repeat(5000) }, { bytes: PNG, name: "a.png" });
    expect(file.status).toBe(422);
    expect(file.body.error.fields).toEqual({ phone: ["Invalid phone number"] });
    expect(await roomCount()).toBe(before);
    // Valid fields are kept cleaned: e-mail lower-cased, phone E.164.
    const ok = await api(`/api/widget/${widgetKey}/messages`, { body: { name: "Maria  Souza", email: "Maria@Example.COM", phone: "(11) 91234-5678", message: "oi" } });
    expect(ok.status).toBe(200);
    expect((await query(`SELECT username, email, phone FROM live_rooms WHERE id = $1`, [ok.body.room.id]))[0]).toEqual({
      username: "Maria Souza",
      email: "maria@example.com",
      phone: "+5511912345678",
    });
  });

  it("a contact's website must be http(s): javascript:, data: and ftp: are refused with a translated error naming it", async () => {
    for (const website of ["javascript:alert(1)", "data:text/html,<script>alert(1)</script>", "ftp://loja.example"]) {
      const res = await as("/api/contacts", { lang: "en", body: { first_name: "Site", mobile_number: "11912345678", website } });
      expect(res.status, website).toBe(422);
      expect(res.body.error.fields.website, website).toEqual(["Use an address starting with http:// or https://"]);
    }
    const ok = await as("/api/contacts", { body: { first_name: "Site", mobile_number: "11987654321", website: "https://loja.example" } });
    expect(ok.status).toBe(201);
  });
});
