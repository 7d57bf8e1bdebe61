/**
 * The API's OpenAPI document and its reference page (issue 12 items 13 and 15): the document passes
 * a strict linter and types a working client; the page at /api/docs works offline (everything it
 * loads comes from our own origin, through the web proxy). Both tools run from node_modules, offline.
 */
import { execFile } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { inject } from "vitest";
import { hasChromium, requireChromiumInCi, useBrowser } from "../support/browser";
import { Value } from "@sinclair/typebox/value";
import type { TSchema } from "elysia";
import { SmsAccepted, SmsHistoryPage, SmsMessage, SmsSenders } from "../../api/sms/responses";
import * as W from "../../api/webhooks/responses";
import * as C from "../../api/contacts/responses";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { api, login, registerPerson } from "../support/api";
import { setAccount } from "../support/factories";

const ROOT = resolve(__dirname, "..", "..");
const bin = (name: string) => join(ROOT, "node_modules", ".bin", name);
const run = promisify(execFile);
/** Offline: no telemetry, no update check. */
const OFFLINE = { ...process.env, REDOCLY_TELEMETRY: "off", REDOCLY_SUPPRESS_UPDATE_NOTICE: "true", NO_UPDATE_NOTIFIER: "1" };

/** The live document, written where the tools read it (tests/typed-client: the client imports ./api). */
async function liveDocument() {
  const doc = await fetch(new URL("/api/docs/json", inject("apiUrl"))).then((r) => r.json());
  mkdirSync(join(ROOT, "tests", ".artifacts"), { recursive: true });
  const file = join(ROOT, "tests", ".artifacts", `openapi-${process.pid}.json`);
  writeFileSync(file, JSON.stringify(doc));
  return { doc, file };
}

type TypedSmsClient = {
  send(to: string, body: string, idempotencyKey: string): Promise<{ id: string; status: string; price: number }>;
  status(id: string): Promise<{ status: string; to: string; history: string[] }>;
  history(to: string): Promise<{ ids: string[]; next: string | null }>;
};

describe("GET /api/docs/json (the OpenAPI document)", () => {
  it("passes redocly lint with the strict rules of redocly.yaml", async () => {
    const { file } = await liveDocument();
    const out = await run(bin("redocly"), ["lint", file, "--config", join(ROOT, "redocly.yaml"), "--format=json"], { env: OFFLINE, cwd: ROOT, maxBuffer: 64 << 20 }).catch(
      (e: { stdout: string }) => e,
    );
    const { problems } = JSON.parse(out.stdout) as { problems: Array<{ ruleId: string; severity: string; message: string; location: Array<{ pointer: string }> }> };
    expect(problems.map((p) => `${p.severity} ${p.ruleId} ${p.location[0]?.pointer}: ${p.message}`)).toEqual([]);
  }, 120_000);

  it("declares the request, the answers (errors too) and the headers of the SMS send, status and history", async () => {
    const { doc } = await liveDocument();
    const send = doc.paths["/api/sms/messages"].post;
    expect(Object.keys(send.requestBody.content)).toEqual(["application/json", "multipart/form-data"]);
    expect(send.requestBody.content["application/json"].schema.properties).toHaveProperty("to");
    expect(send.parameters).toEqual(expect.arrayContaining([expect.objectContaining({ in: "header", name: "idempotency-key" }), { $ref: "#/components/parameters/AccountId" }]));
    for (const status of ["200", "401", "402", "403", "409", "422"]) expect(send.responses, status).toHaveProperty(status);
    expect(send.responses["422"]).toEqual({ $ref: "#/components/responses/Validation" });
    expect(doc.components.responses.Validation.content["application/json"].schema).toEqual({ $ref: "#/components/schemas/Error" });
    expect(doc.paths["/api/sms/messages/{id}"].get.responses["200"].content["application/json"].schema.properties.data.properties).toHaveProperty("events");
    expect(doc.paths["/api/auth/login"].post.security).toEqual([]);
  });

  it("a client typed by openapi-typescript from it compiles and sends, reads the status and the history", async () => {
    const { file } = await liveDocument();
    const dir = join(ROOT, "tests", "typed-client");
    await run(bin("openapi-typescript"), [file, "-o", join(dir, "api.d.ts")], { env: OFFLINE, cwd: ROOT });
    const tsc = await run(
      bin("tsc"),
      ["--noEmit", "--strict", "--skipLibCheck", "--target", "ES2022", "--module", "ESNext", "--moduleResolution", "Bundler", "--lib", "ES2023,DOM", join(dir, "sms-client.ts")],
      { cwd: ROOT },
    ).catch((e: { stdout: string }) => e);
    expect(tsc.stdout).toBe("");

    const p = await registerPerson("typedclient");
    await setAccount(p.accountId, { balance: 10000 });
    const { token } = await login(p.email, p.password);
    const path = join(dir, "sms-client.ts");
    // Loaded by path: the project's own tsc never sees the generated types (tsconfig excludes the folder).
    const { smsClient } = (await import(/* @vite-ignore */ path)) as { smsClient: (base: string, token: string) => TypedSmsClient };
    const client = smsClient(inject("apiUrl"), token);
    const sent = await client.send("11 96" + String(Math.floor(Math.random() * 1e7)).padStart(7, "0"), "Pedido 12 confirmado", `typed-${p.userId}`);
    expect(sent.status).toBe("queued");
    const status = await client.status(sent.id);
    expect(status.to).toMatch(/^\+55/);
    expect(status.history[0]).toBe("queued");
    const history = await client.history(status.to);
    expect(history.ids).toContain(sent.id);

    // The documented answers are the real ones: each raw answer passes its schema of the document.
    const documented: Array<[string, string, TSchema]> = [
      [`/api/sms/messages/${sent.id}`, "/api/sms/messages/{id}", SmsMessage],
      [`/api/sms/messages?to=${encodeURIComponent(status.to)}`, "/api/sms/messages", SmsHistoryPage],
      ["/api/sms/senders", "/api/sms/senders", SmsSenders],
    ];
    await expectDocumented("POST", "/api/sms/messages", SmsAccepted);
    for (const [path, template, schema] of documented) {
      await expectDocumented("GET", template, schema);
      const res = await api(path, { token });
      expect(res.status, path).toBe(200);
      expect(mismatches(schema, res.body), path).toEqual([]);
    }
    const again = await api("/api/sms/messages", { token, body: { to: status.to, body: "Outra" } });
    expect(mismatches(SmsAccepted, again.body)).toEqual([]);
  }, 120_000);
});

describe("the API's one style (issue 12 items 13 and 14)", () => {
  type Schema = { type?: string; properties?: Record<string, Schema>; items?: Schema };
  type Response = { content?: Record<string, { schema?: Schema }>; headers?: Record<string, unknown> };
  it("every operation declares its success answer, every create its Location, every GET list {data, next_cursor}", async () => {
    const { doc } = await liveDocument();
    const undocumented: string[] = [];
    const noLocation: string[] = [];
    const bareLists: string[] = [];
    const listsWithoutCursor: string[] = [];
    let operations = 0;
    for (const [path, ops] of Object.entries(doc.paths as Record<string, Record<string, { responses: Record<string, Response> }>>)) {
      for (const [method, op] of Object.entries(ops)) {
        operations++;
        const name = `${method.toUpperCase()} ${path}`;
        const ok = Object.entries(op.responses).filter(([s]) => /^[23]/.test(s));
        if (!ok.some(([s, r]) => r.content || s === "204" || s.startsWith("3"))) undocumented.push(name);
        if (op.responses["201"] && !op.responses["201"].headers?.Location) noLocation.push(name);
        for (const [, r] of ok) {
          const schema = r.content?.["application/json"]?.schema;
          if (!schema) continue;
          if (schema.type === "array") bareLists.push(name);
          if (method === "get" && schema.properties?.data?.type === "array" && !schema.properties.next_cursor) listsWithoutCursor.push(name);
        }
      }
    }
    expect(operations).toBeGreaterThan(250);
    expect(undocumented).toEqual([]);
    expect(noLocation).toEqual([]);
    expect(bareLists).toEqual([]);
    expect(listsWithoutCursor).toEqual([]);
    // Creates answer 201 across the API (at least the webhook, contact, template and SMPP user creates).
    for (const create of ["/api/webhooks", "/api/contacts", "/api/sms/templates", "/api/smpp/users"]) expect(doc.paths[create].post.responses, create).toHaveProperty("201");
  });
});

const web = (path: string) => new URL(path, inject("webUrl"));

/** The schema errors of an answer (empty when it is what the document says). */
const mismatches = (schema: TSchema, body: unknown) => [...Value.Errors(schema, body)].map((e) => `${e.path}: ${e.message}`);

/** The live document declares `schema` as the 200 answer of the operation. */
async function expectDocumented(method: string, template: string, schema: TSchema) {
  const doc = await fetch(new URL("/api/docs/json", inject("apiUrl"))).then((r) => r.json());
  const responses = doc.paths[template]?.[method.toLowerCase()]?.responses;
  const declared = (responses?.["200"] ?? responses?.["201"])?.content?.["application/json"]?.schema;
  expect(declared, `${method} ${template}`).toEqual(JSON.parse(JSON.stringify(schema)));
}

describe("the documented answers of the customer webhook routes", () => {
  it("are the real ones", async () => {
    const server = createServer((_req, res) => res.writeHead(200).end("ok"));
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
    try {
      const p = await registerPerson("docwebhooks");
      const { token } = await login(p.email, p.password);
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
      const created = await api("/api/webhooks", { token, body: { url, events: ["*"] } });
      expect(created.status).toBe(201);
      expect(mismatches(W.WebhookEndpointCreated, created.body)).toEqual([]);
      const id = created.body.data.id as string;
      // 201 + Location: the new endpoint's own URL.
      expect(created.headers.get("location")).toBe(`/api/webhooks/${id}`);
      expect((await api(created.headers.get("location") as string, { token })).body.data.id).toBe(id);
      const test = await api(`/api/webhooks/${id}/test`, { token, method: "POST" });
      expect(mismatches(W.WebhookTestQueued, test.body)).toEqual([]);
      await expect.poll(async () => (await api(`/api/webhooks/${id}/deliveries`, { token })).body.data?.[0]?.status, { timeout: 20_000 }).toBe("succeeded");

      // Keyset pages of `limit` rows: every delivery once, next_cursor null at the end; a forged cursor is a 422 on `cursor`.
      for (let i = 0; i < 4; i++) expect((await api(`/api/webhooks/${id}/test`, { token, method: "POST" })).status).toBe(200);
      const all = (await api(`/api/webhooks/${id}/deliveries?limit=200`, { token })).body;
      expect(all.data).toHaveLength(5);
      expect(all.next_cursor).toBeNull();
      const seen: string[] = [];
      let cursor: string | null = null;
      let pages = 0;
      do {
        const res: { status: number; body: { data: Array<{ id: string }>; next_cursor: string | null } } = await api(
          `/api/webhooks/${id}/deliveries?limit=2${cursor ? `&cursor=${cursor}` : ""}`,
          { token },
        );
        expect(res.status).toBe(200);
        expect(res.body.data.length).toBeLessThanOrEqual(2);
        seen.push(...res.body.data.map((d: { id: string }) => d.id));
        cursor = res.body.next_cursor;
        pages++;
      } while (cursor && pages < 10);
      expect(pages).toBe(3);
      expect(seen).toEqual(all.data.map((d: { id: string }) => d.id));
      for (const bad of ["nope", Buffer.from('["x"]').toString("base64url"), Buffer.from("[1,2]").toString("base64url")]) {
        const res = await api(`/api/webhooks/${id}/deliveries?cursor=${bad}`, { token, lang: "en" });
        expect(res.status, bad).toBe(422);
        expect(Object.keys(res.body.error.fields)).toEqual(["cursor"]);
      }
      expect((await api(`/api/webhooks/${id}/deliveries?limit=201`, { token })).status).toBe(422);
      const checks: Array<[string, string, TSchema]> = [
        ["POST", "/api/webhooks", W.WebhookEndpointCreated],
        ["POST", "/api/webhooks/{id}/test", W.WebhookTestQueued],
        ["GET", "/api/webhooks", W.WebhookEndpointList],
        ["GET", "/api/webhooks/{id}", W.WebhookEndpoint],
        ["GET", "/api/webhooks/{id}/secret", W.WebhookSecret],
        ["GET", "/api/webhooks/{id}/deliveries", W.WebhookDeliveryPage],
        ["POST", "/api/webhooks/{id}/rotate-secret", W.WebhookSecretRotated],
        ["POST", "/api/webhooks/deliveries/{id}/retry", W.WebhookDelivery],
        ["DELETE", "/api/webhooks/{id}", W.WebhookDeleted],
      ];
      for (const [method, template, schema] of checks) {
        await expectDocumented(method, template, schema);
        if (method === "POST" && !template.includes("{id}")) continue; // created above
        if (template.endsWith("/test")) continue; // queued above
        const path = template.replace("deliveries/{id}", `deliveries/${test.body.data.delivery_id}`).replace("{id}", id);
        const res = await api(path, { token, method });
        expect(res.status, `${method} ${path}`).toBe(200);
        expect(mismatches(schema, res.body), `${method} ${path}`).toEqual([]);
      }
    } finally {
      await new Promise<void>((r) => server.close(() => r()));
    }
  }, 60_000);
});

describe("the documented answers of the contact routes", () => {
  it("are the real ones", async () => {
    const p = await registerPerson("doccontacts");
    const { token } = await login(p.email, p.password);
    const mobile = "11 97" + String(Math.floor(Math.random() * 1e7)).padStart(7, "0");
    const created = await api("/api/contacts", { token, body: { name: "Ana Souza", mobile_number: mobile, email: "ana@exemplo.com", tags: ["vip"] } });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(mismatches(C.ContactSaved, created.body)).toEqual([]);
    const id = created.body.id as string;
    await expectDocumented("POST", "/api/contacts", C.ContactSaved);
    const checks: Array<[string, string, TSchema, unknown?]> = [
      ["GET", "/api/contacts", C.ContactPage],
      ["GET", "/api/contacts/{id}", C.Contact],
      ["PUT", "/api/contacts/{id}", C.Contact, { name: "Ana Souza Lima", mobile_number: mobile }],
      ["DELETE", "/api/contacts/{id}", C.Ok],
    ];
    for (const [method, template, schema, body] of checks) {
      await expectDocumented(method, template, schema);
      const path = template.replace("{id}", id);
      const res = await api(path, { token, method, body });
      expect(res.status, `${method} ${path}`).toBe(200);
      expect(mismatches(schema, res.body), `${method} ${path}`).toEqual([]);
    }
  });
});

describe("GET /api/docs (the reference page)", () => {
  it("loads nothing from another origin, and every script, style and icon it names answers 200 from us", async () => {
    const res = await fetch(web("/api/docs"));
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^text\/html/);
    const html = await res.text();
    // No absolute URL at all (a CDN, a font host, a validator), nor a protocol-relative one.
    expect(html).not.toMatch(/(https?:)?\/\/[a-z0-9.-]+\.[a-z]{2,}/i);
    const refs = [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]);
    expect(refs.length).toBeGreaterThanOrEqual(3);
    for (const ref of refs) {
      expect(ref, ref).toMatch(/^\/api\/docs\//);
      const asset = await fetch(web(ref));
      expect(asset.status, ref).toBe(200);
      expect((await asset.arrayBuffer()).byteLength, ref).toBeGreaterThan(0);
    }
    // Scripts from our origin only: no inline script runs on the page.
    expect(res.headers.get("content-security-policy")).toContain("script-src 'self'");
    expect(html).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
    expect((await fetch(web("/api/docs/assets/package.json"))).status).toBe(404);
  });

  describe("in a browser that can reach nothing but our origin", () => {
    requireChromiumInCi();
    const browser = useBrowser();
    it.skipIf(!hasChromium)(
      "renders the operations of the document",
      async () => {
        const context = await browser().newContext();
        const page = await context.newPage();
        const origin = new URL(inject("webUrl")).origin;
        const elsewhere: string[] = [];
        const problems: string[] = [];
        await context.route("**/*", (route) => {
          if (new URL(route.request().url()).origin === origin) return route.continue();
          elsewhere.push(route.request().url());
          return route.abort();
        });
        page.on("console", (m) => m.type() === "error" && problems.push(m.text()));
        page.on("pageerror", (e) => problems.push(e.message));
        await page.goto(web("/api/docs").toString());
        await page.locator(".opblock-summary-path", { hasText: "/api/auth/login" }).first().waitFor({ timeout: 60_000 });
        expect(elsewhere).toEqual([]);
        expect(problems).toEqual([]);
        await context.close();
      },
      90_000,
    );
  });
});
