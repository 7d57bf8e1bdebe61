import { createHmac } from "node:crypto";
import { describe, expect, it } from "vitest";
import { computeSignature, signWebhook, verifyWebhook, WEBHOOK_TOLERANCE_SECONDS } from "./webhook-signature";

const secret = "test-secret-for-webhooks";
const body = JSON.stringify({ event_id: "ev_1", message_id: "sim-1", status: "delivered", occurred_at: "2026-01-01T00:00:00Z" });
const now = Date.UTC(2026, 0, 1, 12, 0, 0);
const nowSec = Math.floor(now / 1000);

describe("Standard Webhooks signatures", () => {
  it("signs `${id}.${timestamp}.${body}` with HMAC-SHA256, base64, prefixed v1,", () => {
    const h = signWebhook(secret, "msg_1", body, nowSec);
    const expected = createHmac("sha256", secret).update(`msg_1.${nowSec}.${body}`).digest("base64");
    expect(h).toEqual({ "webhook-id": "msg_1", "webhook-timestamp": String(nowSec), "webhook-signature": `v1,${expected}` });
  });

  it("matches the Standard Webhooks reference vector (whsec_ secrets are base64 key bytes)", () => {
    // From the standard-webhooks reference test suite.
    const sig = computeSignature("whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw", "msg_p5jXN8AQM9LWM0D4loKWxJek", 1614265330, '{"test": 2432232314}');
    expect(sig).toBe("g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=");
  });

  it("verifies a correct signature, with Headers or a plain object", () => {
    const h = signWebhook(secret, "msg_1", body, nowSec);
    expect(verifyWebhook(secret, h, body, { now })).toEqual({ ok: true, id: "msg_1", timestamp: nowSec });
    expect(verifyWebhook(secret, new Headers(h), body, { now }).ok).toBe(true);
  });

  it("rejects missing headers", () => {
    const h = signWebhook(secret, "msg_1", body, nowSec);
    for (const name of ["webhook-id", "webhook-timestamp", "webhook-signature"] as const) {
      const partial: Record<string, string> = { ...h };
      delete partial[name];
      expect(verifyWebhook(secret, partial, body, { now })).toEqual({ ok: false, reason: "missing_headers" });
    }
  });

  it("rejects a wrong secret, a changed body, a changed id and a changed timestamp", () => {
    const h = signWebhook(secret, "msg_1", body, nowSec);
    expect(verifyWebhook("another-secret", h, body, { now })).toEqual({ ok: false, reason: "bad_signature" });
    expect(verifyWebhook(secret, h, body.replace("delivered", "read"), { now })).toEqual({ ok: false, reason: "bad_signature" });
    expect(verifyWebhook(secret, { ...h, "webhook-id": "msg_2" }, body, { now })).toEqual({ ok: false, reason: "bad_signature" });
    expect(verifyWebhook(secret, { ...h, "webhook-timestamp": String(nowSec + 1) }, body, { now })).toEqual({ ok: false, reason: "bad_signature" });
  });

  it("rejects malformed signatures and timestamps without throwing", () => {
    const h = signWebhook(secret, "msg_1", body, nowSec);
    for (const bad of ["", "v1,", "v1,not-base64!!", "v2," + h["webhook-signature"].slice(3), h["webhook-signature"].slice(3)]) {
      expect(verifyWebhook(secret, { ...h, "webhook-signature": bad }, body, { now }).ok).toBe(false);
    }
    expect(verifyWebhook(secret, { ...h, "webhook-timestamp": "12a" }, body, { now })).toEqual({ ok: false, reason: "bad_timestamp" });
    expect(verifyWebhook(secret, { ...h, "webhook-timestamp": "-5" }, body, { now })).toEqual({ ok: false, reason: "bad_timestamp" });
  });

  it("accepts timestamps within 5 minutes either side and rejects older or newer ones", () => {
    for (const delta of [-WEBHOOK_TOLERANCE_SECONDS, 0, WEBHOOK_TOLERANCE_SECONDS]) {
      const h = signWebhook(secret, "msg_1", body, nowSec + delta);
      expect(verifyWebhook(secret, h, body, { now }).ok, `delta ${delta}`).toBe(true);
    }
    for (const delta of [-WEBHOOK_TOLERANCE_SECONDS - 1, WEBHOOK_TOLERANCE_SECONDS + 1]) {
      const h = signWebhook(secret, "msg_1", body, nowSec + delta);
      expect(verifyWebhook(secret, h, body, { now }), `delta ${delta}`).toEqual({ ok: false, reason: "expired" });
    }
  });

  it("accepts any one of several space-separated signatures, and any one of several secrets", () => {
    const h = signWebhook(secret, "msg_1", body, nowSec);
    const other = signWebhook("old-secret", "msg_1", body, nowSec)["webhook-signature"];
    expect(verifyWebhook(secret, { ...h, "webhook-signature": `${other} ${h["webhook-signature"]}` }, body, { now }).ok).toBe(true);
    expect(verifyWebhook(secret, { ...h, "webhook-signature": `v1a,xyz ${h["webhook-signature"]}` }, body, { now }).ok).toBe(true);
    expect(verifyWebhook(["old-secret", secret], h, body, { now }).ok).toBe(true);
    expect(verifyWebhook(["old-secret", ""], h, body, { now }).ok).toBe(false);
  });
});
