/**
 * The account's payment provider (a PSP) behind one small contract, as channels are behind theirs
 * (ADR 043): `createCharge` opens a Pix charge for an invoice and answers the provider's charge id,
 * its BR Code ("copia e cola") and the page where it can be paid; `secrets` verify the provider's
 * signed webhooks (Standard Webhooks over the raw body, api/channels/webhook-signature.ts);
 * `parseEvent` reads one of its events in our words.
 *
 * `simulator`: the loopback PSP of the simulator process (api/simulator/psp.ts) — `npm start` runs
 * it, so a new user can top up and pay on its page; the tests use it. A real PSP is one more
 * adapter here. The request goes through the one guarded HTTP client (bounded size and time, no
 * redirects); the PSP's URL is the operator's (trust "platform").
 */
import { z } from "../lib/zod";
import { AppError } from "../lib/errors";
import { env } from "../lib/env";
import { OutboundError, outboundFetch } from "../lib/outbound";
import { validate } from "../lib/validate";

export type Charge = { chargeId: string; pixPayload: string; payUrl: string | null };
export type PaymentEvent = { eventId: string; chargeId: string; kind: "charge.paid" | "charge.failed"; amount: number; occurredAt: Date };

export interface PaymentProvider {
  name: string;
  createCharge(input: { txid: string; amount: number; currency: string; description: string; dueAt: Date }): Promise<Charge>;
  secrets(): string[];
  parseEvent(json: unknown): PaymentEvent;
}

const chargeAnswer = z.object({
  id: z.string().min(1).max(200),
  pix: z.object({ payload: z.string().min(20).max(512) }),
  pay_url: z.string().url().nullable().optional(),
});

const eventSchema = z.object({
  id: z.string().min(1).max(200),
  type: z.enum(["charge.paid", "charge.failed"]),
  data: z.object({
    charge_id: z.string().min(1).max(200),
    amount: z.number().int().positive(),
    occurred_at: z.string().datetime({ offset: true }),
  }),
});

export const simulatorPaymentProvider: PaymentProvider = {
  name: "simulator",
  async createCharge({ txid, amount, currency, description, dueAt }) {
    let res: Awaited<ReturnType<typeof outboundFetch>>;
    try {
      res = await outboundFetch(`${env().SIMULATOR_URL}/psp/v1/charges`, {
        method: "POST",
        headers: { Authorization: `Bearer ${env().SIMULATOR_API_KEY}`, "Content-Type": "application/json" },
        body: JSON.stringify({ txid, amount, currency, description, due_at: dueAt.toISOString() }),
        timeoutMs: 10_000,
        maxBytes: 64 * 1024,
        trust: "platform",
      });
    } catch (e) {
      if (e instanceof OutboundError) throw new AppError("PROVIDER_UNAVAILABLE");
      throw e;
    }
    if (res.status !== 201) throw new AppError("PROVIDER_UNAVAILABLE");
    const body = chargeAnswer.parse(res.json());
    return { chargeId: body.id, pixPayload: body.pix.payload, payUrl: body.pay_url ?? null };
  },
  secrets: () => [env().SIMULATOR_WEBHOOK_SECRET],
  parseEvent(json) {
    const e = validate(eventSchema, json);
    return { eventId: e.id, chargeId: e.data.charge_id, kind: e.type, amount: e.data.amount, occurredAt: new Date(e.data.occurred_at) };
  },
};

const PROVIDERS: Record<string, PaymentProvider> = { simulator: simulatorPaymentProvider };

export const paymentProvider = (name: string): PaymentProvider | undefined => PROVIDERS[name];

/** The provider new invoices are charged at (one per platform for now; per account when accounts choose). */
export const defaultPaymentProvider = (): PaymentProvider => simulatorPaymentProvider;
