/**
 * Customer webhook secret rotation with an overlap window (ADR 012): after a rotation, for 24 hours
 * every delivery carries two Standard Webhooks signatures (new secret first, then the replaced
 * one), so a receiver still verifying with the old secret keeps passing while one already on the
 * new secret passes too; once the window is over (shifted in the database) only the new secret
 * signs. A second rotation inside the window drops the oldest secret.
 */
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { verifyWebhook } from "../../api/channels/webhook-signature";
import { api, login, registerPerson } from "../support/api";
import { ago, setWebhookEndpoint } from "../support/factories";

type Hit = { headers: IncomingHttpHeaders; raw: string };
const hits: Hit[] = [];
let server: Server;
let base: string;

beforeAll(async () => {
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      hits.push({ headers: req.headers, raw: Buffer.concat(chunks).toString("utf8") });
      res.writeHead(200).end("ok");
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

async function until<T>(what: string, fn: () => Promise<T | undefined | false>, ms = 20_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe("webhook secret rotation", () => {
  it("signs with the new and the previous secret for 24 h, then only with the new one", async () => {
    const p = await registerPerson("whoverlap");
    const token = (await login(p.email, p.password)).token;
    const created = await api("/api/webhooks", { token, body: { url: `${base}/hook`, events: ["message.received"], description: "overlap" } });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const id = created.body.data.id as string;
    const first = created.body.data.secret as string;

    /** Queues a test event and answers what the receiver got, with which secrets it verifies. */
    const deliver = async (secrets: Record<string, string>) => {
      const { event_id } = (await api(`/api/webhooks/${id}/test`, { token, method: "POST" })).body.data;
      const hit = await until("test event", async () => hits.find((h) => h.headers["webhook-id"] === event_id));
      const headers = hit.headers as Record<string, string>;
      const verified = Object.fromEntries(Object.entries(secrets).map(([name, s]) => [name, verifyWebhook(s, headers, hit.raw).ok]));
      return { signatures: headers["webhook-signature"].split(" "), verified };
    };

    // Before any rotation: one signature.
    expect(await deliver({ first })).toEqual({ signatures: [expect.stringMatching(/^v1,/)], verified: { first: true } });

    const rotated = await api(`/api/webhooks/${id}/rotate-secret`, { token, method: "POST" });
    expect(rotated.status).toBe(200);
    const second = rotated.body.data.secret as string;
    expect(second).not.toBe(first);
    const until24h = new Date(rotated.body.data.previous_secret_expires_at).getTime() - Date.now();
    expect(until24h).toBeGreaterThan(24 * 3_600_000 - 60_000);
    expect(until24h).toBeLessThanOrEqual(24 * 3_600_000);

    // In the window: two signatures; a receiver on the old secret and one on the new both pass.
    const during = await deliver({ first, second });
    expect(during.signatures).toHaveLength(2);
    expect(during.verified).toEqual({ first: true, second: true });
    // The new secret's signature comes first; each one alone verifies with its own secret only.
    const hit = hits[hits.length - 1];
    const only = (sig: string) => ({ ...(hit.headers as Record<string, string>), "webhook-signature": sig });
    expect(verifyWebhook(second, only(during.signatures[0]), hit.raw).ok).toBe(true);
    expect(verifyWebhook(first, only(during.signatures[1]), hit.raw).ok).toBe(true);
    expect(verifyWebhook(first, only(during.signatures[0]), hit.raw).ok).toBe(false);

    // The window is over (shifted in the database): only the new secret signs.
    await setWebhookEndpoint(id, { previousSecretExpiresAt: ago("1 second") });
    const after = await deliver({ first, second });
    expect(after.signatures).toHaveLength(1);
    expect(after.verified).toEqual({ first: false, second: true });

    // Two rotations inside one window: the newest and the one it replaced sign; the oldest no longer does.
    const third = (await api(`/api/webhooks/${id}/rotate-secret`, { token, method: "POST" })).body.data.secret as string;
    const fourth = (await api(`/api/webhooks/${id}/rotate-secret`, { token, method: "POST" })).body.data.secret as string;
    const twice = await deliver({ second, third, fourth });
    expect(twice.signatures).toHaveLength(2);
    expect(twice.verified).toEqual({ second: false, third: true, fourth: true });
    // The secret shown is always the newest.
    expect((await api(`/api/webhooks/${id}/secret`, { token })).body.data.secret).toBe(fourth);
  });
});
