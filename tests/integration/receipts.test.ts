/**
 * Step 3 of the message pipeline over real HTTP, PostgreSQL and Redis: signed provider receipts
 * move a message forward only, are idempotent, and every real change is announced exactly once
 * (one applied provider event: what the customer webhooks' outbox fans out).
 */
import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { inject } from "vitest";
import { signWebhook } from "../../api/channels/webhook-signature";
import { registerPerson } from "../support/api";
import { query } from "../support/db";
import { ago, makeMessage, type MessageStatus } from "../support/factories";

const SECRET = inject("simulatorWebhookSecret");
let accountId: string;

type Row = Record<string, unknown> & { status: string };

async function insertMessage(status: MessageStatus = "sent") {
  const providerMessageId = `sim-${randomUUID()}`;
  const id = await makeMessage(accountId, {
    sender: "29094",
    recipient: "+5511987654321",
    body: "Seu pedido saiu para entrega",
    segments: 1,
    coding: "GSM7",
    status,
    provider: "simulator",
    route: "T1",
    providerMessageId,
    price: 5,
    sentAt: status === "sent" ? ago("1 minute") : null,
  });
  return { id, providerMessageId };
}

async function messageRow(id: string): Promise<Row> {
  const [row] = await query<Row>("SELECT * FROM messages WHERE id = $1", [id]);
  return row;
}

async function eventsOf(id: string) {
  return query<{ status: string; source: string; provider_event_id: string; payload: Record<string, unknown> }>(
    "SELECT status, source, provider_event_id, payload FROM message_events WHERE message_id = $1 ORDER BY id",
    [id],
  );
}

/**
 * The message.status_changed announcements of one message, oldest first: its provider events
 * that changed the status (what the customer webhooks' outbox trigger of migration 0019 fans out).
 */
async function announced(messageId: string) {
  const rows = await query<{ status: string }>(
    `SELECT status FROM message_events WHERE message_id = $1 AND source = 'provider' AND COALESCE(payload->>'applied', 'true') <> 'false' ORDER BY id`,
    [messageId],
  );
  return rows.map((r) => ({ event: "message.status_changed", message_id: messageId, status: r.status }));
}

function receipt(providerMessageId: string, status: string, extra: Record<string, unknown> = {}) {
  return JSON.stringify({ event_id: `ev-${randomUUID()}`, message_id: providerMessageId, status, occurred_at: new Date().toISOString(), ...extra });
}

async function post(raw: string, headers: Record<string, string> | null = signWebhook(SECRET, `wh-${randomUUID()}`, raw), provider = "simulator") {
  const res = await fetch(new URL(`/api/webhooks/providers/${provider}`, inject("apiUrl")), {
    method: "POST",
    headers: { "Content-Type": "application/json", ...(headers ?? {}) },
    body: raw,
  });
  const text = await res.text();
  let body: any = text;
  try {
    body = JSON.parse(text);
  } catch {}
  return { status: res.status, body };
}

beforeAll(async () => {
  accountId = (await registerPerson("receipts", { verify: false })).accountId;
});

describe("provider receipts (POST /api/webhooks/providers/:provider)", () => {
  it("a signed delivered receipt applies: status, delivered_at, one event, one announcement", async () => {
    const m = await insertMessage("sent");
    const occurredAt = new Date(Date.now() - 5000);
    const res = await post(receipt(m.providerMessageId, "delivered", { occurred_at: occurredAt.toISOString() }));
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ result: "applied", messageId: m.id, status: "delivered", previous: "sent" });

    const row = await messageRow(m.id);
    expect(row.status).toBe("delivered");
    expect((row.delivered_at as Date).toISOString()).toBe(occurredAt.toISOString());
    const events = await eventsOf(m.id);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ status: "delivered", source: "provider" });
    expect(await announced(m.id)).toEqual([{ event: "message.status_changed", message_id: m.id, status: "delivered" }]);
  });

  it("SMPP-style words map to ours (DELIVRD -> delivered)", async () => {
    const m = await insertMessage("sent");
    const res = await post(receipt(m.providerMessageId, "DELIVRD"));
    expect(res.status).toBe(200);
    expect((await messageRow(m.id)).status).toBe("delivered");
  });

  it("the same receipt twice changes nothing the second time", async () => {
    const m = await insertMessage("sent");
    const raw = receipt(m.providerMessageId, "delivered");
    expect((await post(raw)).body.result).toBe("applied");
    const after = await messageRow(m.id);
    // A provider retry: same body, new delivery of the webhook.
    const again = await post(raw);
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ result: "duplicate", status: "delivered" });
    // The same status in a different receipt (new event id) is a duplicate too.
    expect((await post(receipt(m.providerMessageId, "delivered"))).body.result).toBe("duplicate");
    expect(await messageRow(m.id)).toEqual(after);
    expect(await eventsOf(m.id)).toHaveLength(1);
    expect(await announced(m.id)).toHaveLength(1);
  });

  it("concurrent copies of one receipt apply exactly once", async () => {
    const m = await insertMessage("sent");
    const raw = receipt(m.providerMessageId, "delivered");
    const results = await Promise.all(Array.from({ length: 8 }, () => post(raw)));
    expect(results.map((r) => r.status)).toEqual(Array(8).fill(200));
    expect(results.filter((r) => r.body.result === "applied")).toHaveLength(1);
    expect(results.filter((r) => r.body.result === "duplicate")).toHaveLength(7);
    expect(await eventsOf(m.id)).toHaveLength(1);
    expect(await announced(m.id)).toHaveLength(1);
  });

  it("failed after delivered changes nothing", async () => {
    const m = await insertMessage("sent");
    await post(receipt(m.providerMessageId, "delivered"));
    const before = await messageRow(m.id);
    const res = await post(receipt(m.providerMessageId, "failed", { error_code: "ERR_HANDSET", error_message: "absent subscriber" }));
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ result: "unchanged", status: "delivered" });
    const after = await messageRow(m.id);
    expect(after).toEqual(before);
    expect(after.failed_at).toBeNull();
    expect(after.error_code).toBeNull();
    // The provider's word is kept in the history, marked as not applied.
    const events = await eventsOf(m.id);
    expect(events.map((e) => [e.status, e.payload.applied])).toEqual([
      ["delivered", true],
      ["failed", false],
    ]);
    expect((await announced(m.id)).map((e) => e.status)).toEqual(["delivered"]);
  });

  it("read then a late delivered keeps read", async () => {
    const m = await insertMessage("sent");
    expect((await post(receipt(m.providerMessageId, "read"))).body.result).toBe("applied");
    const before = await messageRow(m.id);
    expect(before.status).toBe("read");
    expect(before.read_at).not.toBeNull();
    const late = await post(receipt(m.providerMessageId, "delivered"));
    expect(late.status).toBe(200);
    expect(late.body).toMatchObject({ result: "unchanged", status: "read" });
    expect(await messageRow(m.id)).toEqual(before);
    expect((await announced(m.id)).map((e) => e.status)).toEqual(["read"]);
  });

  it("a failure before delivery applies with its error and failed_at", async () => {
    const m = await insertMessage("sent");
    const res = await post(receipt(m.providerMessageId, "UNDELIV", { error_code: "ERR_ABSENT", error_message: "Assinante ausente" }));
    expect(res.body).toMatchObject({ result: "applied", status: "failed" });
    const row = await messageRow(m.id);
    expect(row).toMatchObject({ status: "failed", error_code: "ERR_ABSENT", error_message: "Assinante ausente" });
    expect(row.failed_at).not.toBeNull();
    // Terminal: a later delivered changes nothing.
    expect((await post(receipt(m.providerMessageId, "delivered"))).body.result).toBe("unchanged");
    expect((await messageRow(m.id)).status).toBe("failed");
    expect((await announced(m.id)).map((e) => e.status)).toEqual(["failed"]);
  });

  describe("refused signatures: 401 and nothing changes", () => {
    const cases: Array<[string, (raw: string) => Record<string, string> | null]> = [
      ["unsigned", () => null],
      ["wrongly signed", (raw) => signWebhook("not-the-simulator-secret-0123456789", `wh-${randomUUID()}`, raw)],
      ["stale timestamp", (raw) => signWebhook(SECRET, `wh-${randomUUID()}`, raw, Math.floor(Date.now() / 1000) - 6 * 60)],
      ["signed over a different body", (raw) => signWebhook(SECRET, `wh-${randomUUID()}`, raw.replace('"delivered"', '"read"'))],
    ];
    for (const [name, headers] of cases) {
      it(name, async () => {
        const m = await insertMessage("sent");
        const before = await messageRow(m.id);
        const raw = receipt(m.providerMessageId, "delivered");
        const res = await post(raw, headers(raw));
        expect(res.status).toBe(401);
        expect(res.body.error.code).toBe("UNAUTHENTICATED");
        expect(await messageRow(m.id)).toEqual(before);
        expect(await eventsOf(m.id)).toHaveLength(0);
        expect(await announced(m.id)).toHaveLength(0);
      });
    }
  });

  it("an unknown provider message id answers 200 ignored and changes nothing", async () => {
    const m = await insertMessage("sent");
    const before = await messageRow(m.id);
    const res = await post(receipt(`sim-unknown-${randomUUID()}`, "delivered"));
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ result: "ignored" });
    expect(await messageRow(m.id)).toEqual(before);
    const [{ n }] = await query<{ n: number }>("SELECT count(*)::int AS n FROM message_events WHERE account_id = $1 AND message_id = $2", [accountId, m.id]);
    expect(n).toBe(0);
  });

  it("a receipt is matched within its provider only, and an unknown provider is 404", async () => {
    const m = await insertMessage("sent");
    const raw = receipt(m.providerMessageId, "delivered");
    const res = await post(raw, signWebhook(SECRET, `wh-${randomUUID()}`, raw), "no-such-provider");
    expect(res.status).toBe(404);
    expect((await messageRow(m.id)).status).toBe("sent");
  });

  it("a correctly signed but malformed receipt is 422 and changes nothing", async () => {
    const m = await insertMessage("sent");
    const before = await messageRow(m.id);
    for (const raw of ["not json", JSON.stringify({ message_id: m.providerMessageId, status: "delivered" }), receipt(m.providerMessageId, "teleported")]) {
      const res = await post(raw);
      expect(res.status, raw).toBe(422);
    }
    expect(await messageRow(m.id)).toEqual(before);
    expect(await eventsOf(m.id)).toHaveLength(0);
  });

  it("out-of-order receipts end on the furthest status, announcing each real step once", async () => {
    const m = await insertMessage("queued");
    for (const s of ["delivered", "sent", "read", "delivered", "failed", "read"]) expect((await post(receipt(m.providerMessageId, s))).status).toBe(200);
    const row = await messageRow(m.id);
    expect(row.status).toBe("read");
    expect(row.sent_at).toBeNull(); // `sent` came after `delivered` and was not applied
    expect((await announced(m.id)).map((e) => e.status)).toEqual(["delivered", "read"]);
    expect((await eventsOf(m.id)).map((e) => [e.status, e.payload.applied])).toEqual([
      ["delivered", true],
      ["sent", false],
      ["read", true],
      ["failed", false],
    ]);
  });

  it("a burst of receipts for many messages at once (batched together) applies each exactly as one at a time would", async () => {
    const messages = await Promise.all(Array.from({ length: 40 }, () => insertMessage()));
    // A burst of delivered receipts (each posted twice), then a burst of late ones (failed after
    // delivered, sent after delivered) — each burst is written in shared transactions.
    const delivered = messages.map((m) => receipt(m.providerMessageId, "delivered"));
    const first = await Promise.all(delivered.flatMap((raw) => [post(raw), post(raw)]));
    const late = await Promise.all(messages.flatMap((m) => [post(receipt(m.providerMessageId, "failed", { error_code: "X" })), post(receipt(m.providerMessageId, "sent"))]));
    const answers = [...first, ...late];
    expect(answers.every((a) => a.status === 200)).toBe(true);
    expect(first.filter((a) => a.body.result === "applied")).toHaveLength(40);
    expect(first.filter((a) => a.body.result === "duplicate")).toHaveLength(40);
    expect(late.every((a) => a.body.result === "unchanged" && a.body.status === "delivered")).toBe(true);
    for (const m of messages) {
      const row = await messageRow(m.id);
      expect(row.status).toBe("delivered");
      expect(row.error_code).toBeNull();
      const events = await eventsOf(m.id);
      expect(events.map((e) => `${e.status}:${e.payload.applied}`).sort()).toEqual(["delivered:true", "failed:false", "sent:false"]);
      expect((await announced(m.id)).map((a) => a.status)).toEqual(["delivered"]);
    }
  });
});

describe("batched receipts (a JSON array in one signed post)", () => {
  it("applies each item like a single receipt and answers their outcomes in order", async () => {
    const [a, b, c] = await Promise.all([insertMessage(), insertMessage(), insertMessage()]);
    await post(receipt(c.providerMessageId, "delivered"));
    const items = [
      JSON.parse(receipt(a.providerMessageId, "delivered", { carrier: "Vivo" })),
      JSON.parse(receipt(b.providerMessageId, "failed", { error_code: "1", error_message: "Absent subscriber" })),
      JSON.parse(receipt(a.providerMessageId, "delivered")),
      JSON.parse(receipt(c.providerMessageId, "delivered")),
      JSON.parse(receipt(`sim-${randomUUID()}`, "delivered")),
      JSON.parse(receipt(a.providerMessageId, "sent")),
    ];
    const res = await post(JSON.stringify(items));
    expect(res.status).toBe(200);
    expect(res.body.results.map((r: { result: string }) => r.result)).toEqual(["applied", "applied", "duplicate", "duplicate", "ignored", "unchanged"]);
    expect(await messageRow(a.id)).toMatchObject({ status: "delivered", carrier: "Vivo" });
    expect(await messageRow(b.id)).toMatchObject({ status: "failed", error_code: "1", error_message: "Absent subscriber" });
    expect((await eventsOf(a.id)).map((e) => e.status)).toEqual(["delivered", "sent"]);
    // The provider re-posts the same batch (its retry): nothing changes, nothing is announced again.
    const again = await post(JSON.stringify(items));
    expect(again.body.results.map((r: { result: string }) => r.result)).toEqual(["duplicate", "duplicate", "duplicate", "duplicate", "ignored", "duplicate"]);
    expect((await announced(a.id)).map((x) => x.status)).toEqual(["delivered"]);
    expect((await announced(b.id)).map((x) => x.status)).toEqual(["failed"]);
  });

  it("one invalid item refuses the whole post, naming the item, and nothing is applied", async () => {
    const m = await insertMessage();
    const items = [JSON.parse(receipt(m.providerMessageId, "delivered")), JSON.parse(receipt(m.providerMessageId, "teleported"))];
    const res = await post(JSON.stringify(items));
    expect(res.status).toBe(422);
    expect(JSON.stringify(res.body)).toContain("1.status");
    expect((await messageRow(m.id)).status).toBe("sent");
    expect(await eventsOf(m.id)).toEqual([]);
  });

  it("an empty batch or one over 1,000 items is 422; a batch with a wrong signature is 401", async () => {
    expect((await post("[]")).status).toBe(422);
    const m = await insertMessage();
    const many = JSON.stringify(Array.from({ length: 1001 }, () => JSON.parse(receipt(m.providerMessageId, "delivered"))));
    expect((await post(many)).status).toBe(422);
    const raw = JSON.stringify([JSON.parse(receipt(m.providerMessageId, "delivered"))]);
    expect((await post(raw, signWebhook("not-the-secret-0123456789", `wh-${randomUUID()}`, raw))).status).toBe(401);
    expect((await messageRow(m.id)).status).toBe("sent");
  });
});

describe("GET /api/docs/json", () => {
  it("documents the provider receipt webhook", async () => {
    const res = await fetch(new URL("/api/docs/json", inject("apiUrl")));
    const spec = (await res.json()) as { paths: Record<string, Record<string, { summary?: string }>> };
    expect(spec.paths["/api/webhooks/providers/{provider}"]?.post?.summary).toMatch(/webhook-signature/);
  });
});
