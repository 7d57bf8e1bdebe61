/**
 * WhatsApp test helpers over the simulator's loopback Graph peer (api/simulator/whatsapp-cloud.ts):
 * connect a Cloud number to an account, get a template approved, have a contact write (Meta's
 * signed `messages` webhook: the contact's 24-hour window opens), read what the peer received.
 */
import { createHmac } from "node:crypto";
import { expect, inject } from "vitest";
import { simulatedAppSecret } from "../../api/simulator/whatsapp-cloud";
import { api } from "./api";
import { waitUntil } from "./loopback-peer";

export const digits = (n: number) => Array.from({ length: n }, () => Math.floor(Math.random() * 10)).join("");
/**
 * A random São Paulo mobile number that the loopback peers treat as an ordinary handset: it never
 * ends in one of their test endings (0000: not RCS-capable; 0001: undeliverable on WhatsApp, not a
 * WhatsApp user on the older client), which a plain random number does 1 time in 5,000.
 */
export const handset = () => `+55119${digits(7)}${2 + Math.floor(Math.random() * 8)}`;

export type CloudNumber = { token: string; numberId: string; phoneNumberId: string; wabaId: string };

/** Connects a new Cloud API number (random ids) to the account of `token`. */
export async function connectCloudNumber(token: string): Promise<CloudNumber> {
  const phoneNumberId = `1${digits(14)}`;
  const wabaId = `2${digits(14)}`;
  const res = await api("/api/whatsapp/numbers", {
    token,
    body: { phone_number_id: phoneNumberId, waba_id: wabaId, access_token: `EAAG${digits(20)}`, app_secret: simulatedAppSecret(inject("simulatorApiKey")) },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return { token, numberId: res.body.data.id, phoneNumberId, wabaId };
}

/** Creates a template on the number and waits until the peer approved it; answers its id. */
export async function approvedTemplate(n: CloudNumber, body: Record<string, unknown>): Promise<string> {
  const res = await api("/api/whatsapp/templates", { token: n.token, body: { number_id: n.numberId, category: "utility", language: "pt_BR", ...body } });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  const id = res.body.data.id as string;
  await waitUntil("template approved", async () => (await api(`/api/whatsapp/templates/${id}`, { token: n.token })).body.data.status === "approved");
  return id;
}

/** The contact (E.164) writes to the number through Meta's signed webhook: their window opens. */
export async function contactWrites(n: CloudNumber, from: string, text = "oi") {
  const now = Math.floor(Date.now() / 1000);
  const raw = JSON.stringify({
    object: "whatsapp_business_account",
    entry: [
      {
        id: n.wabaId,
        time: now,
        changes: [
          {
            field: "messages",
            value: {
              messaging_product: "whatsapp",
              metadata: { phone_number_id: n.phoneNumberId },
              messages: [{ from: from.slice(1), id: `wamid.${digits(20)}`, timestamp: String(now), type: "text", text: { body: text } }],
            },
          },
        ],
      },
    ],
  });
  const signature = `sha256=${createHmac("sha256", simulatedAppSecret(inject("simulatorApiKey")))
    .update(raw)
    .digest("hex")}`;
  const res = await fetch(new URL(`/api/webhooks/whatsapp/${n.numberId}`, inject("apiUrl")), {
    method: "POST",
    headers: { "Content-Type": "application/json", "X-Hub-Signature-256": signature },
    body: raw,
  });
  expect(res.status).toBe(200);
  await expect
    .poll(async () => (await api(`/api/whatsapp/window?number_id=${n.numberId}&to=${encodeURIComponent(from)}`, { token: n.token })).body.data.open, { timeout: 10_000 })
    .toBe(true);
}

export type PeerMessage = { id: string; from: string; to: string; type: string; content: Record<string, any>; at: number };

/** What the peer received for a contact (E.164), as Graph's message objects. */
export async function peerMessages(to: string): Promise<PeerMessage[]> {
  const res = await fetch(new URL(`/whatsapp/_sim/messages?to=${to.slice(1)}`, inject("simulatorUrl")), {
    headers: { Authorization: `Bearer ${inject("simulatorApiKey")}` },
  });
  return ((await res.json()) as { data: PeerMessage[] }).data;
}
