/**
 * The built-in provider simulator: a real HTTP peer in its own process, speaking a provider-like
 * REST API, so the dispatcher exercises exactly the path a real provider takes.
 *
 *   POST /v1/messages {to, from, body, reference}   Authorization: Bearer SIMULATOR_API_KEY
 *     -> 202 {id, status: "accepted"}. Idempotent on `reference` (our message id): the same
 *        reference answers the same id and reaches the "handset" once. 401 without the key,
 *        400 for a number that is not E.164 and for the magic number +15005550001 (invalid number),
 *        503 always for +15005550503 (a provider outage that never ends, to exercise retries).
 *   GET /v1/messages?reference=…  -> 200 {id, reference, status} of an earlier submit, 404 if none
 *     (what a dispatcher asks before repeating a submit whose answer it lost; not a submit).
 *   GET /v1/messages/{id}  -> 200 {id, reference, status, error_code, error_message, carrier,
 *     occurred_at}: the message's status as the simulator decided it — `enroute` until its receipt
 *     is due, then its final outcome — whether or not the receipt reached us; 404 for an unknown id
 *     (what the reconciliation sweep asks about a message left `sent`, api/messages/reconcile.ts).
 *   Test numbers: +15005550404 — the receipt is lost (never posted; the status look-up answers
 *     the outcome); +15005550408 — the provider never learns a final status (no receipt, the
 *     look-up answers `enroute` for ever: the message can only expire).
 *   GET /v1/stats[?reference=…] -> counts: per reference the submits accepted (repeats included),
 *     and `throttled` (429 answers); ?times=1 -> when each reference's first submit arrived.
 *
 * SIMULATOR_MAX_RPS > 0: more submits than that within one second are answered
 * 429 {error, retry_after_ms} with Retry-After (seconds), like a provider's throttling; the
 * throttled submit is not taken (not counted as accepted).
 *   GET /v1/stats[?reference=…] -> counts: per reference the submits accepted (repeats included).
 *   POST /v1/inbound {from, to, body} -> posts a signed MO (inbound SMS) webhook to us (see inbound()).
 *   GET /health
 *
 * SIMULATOR_DELAY_MS after the first submit of a reference it posts one signed receipt
 * (Standard Webhooks, SIMULATOR_WEBHOOK_SECRET) to SIMULATOR_WEBHOOK_URL: `delivered`, `failed`
 * or `unavailable`, chosen from SIMULATOR_MIX by hashing the reference (./outcome). If our
 * endpoint is down or has not yet recorded the provider id (answers `ignored`), it retries like a
 * real provider, for hours (RECEIPT_RETRY_SCHEDULE_S, scaled by SIMULATOR_RECEIPT_RETRY_SCALE).
 * Receipts that wait for a free post go together as one JSON array (see pumpReceipts).
 * State is in memory: a restart forgets references (like a provider's retention ending).
 *
 * Under /whatsapp/v19.0 it is also a WhatsApp Cloud API (Graph) peer: ./whatsapp-cloud.ts; under
 * /whatsapp-onprem/{client} a BSP's WhatsApp Business API clients in the On-Premises shape, with the
 * BSP's template API: ./whatsapp-onprem.ts. Under /rbm, Google's RCS Business Messaging API
 * (agentMessages, capabilities, the token endpoint, signed agent webhooks): ./rbm.ts. Under /hlr,
 * the number lookup provider (batch HLR / number portability, issue 22): ./hlr.ts. Under
 * /nuvemshop, a Nuvemshop store API with signed order webhooks (integrations, issue 23): ./nuvemshop.ts. Under /ra,
 * Reclame Aqui's company ticket API (complaints and their answers, issue 23): ./reclame-aqui.ts.
 *
 * On 127.0.0.1:SIMULATOR_SMTP_PORT it is also the e-mail channel's local SMTP peer (a relay and
 * the receiving MTAs: answers by the recipient's local part, verifies DKIM, sends DSN and ARF
 * reports to our inbound listener), inspected under /email/_sim: ./smtp-peer.ts.
 */
import { randomUUID } from "node:crypto";
import { simulatedCarrier } from "./carrier";
import { pspPeer } from "./psp";
import { signWebhook } from "../channels/webhook-signature";
import { env } from "../lib/env";
import { closeRedis } from "../lib/redis";
import { parseMix, SIMULATED_ERRORS, simulatedOutcome, type SimulatedOutcome } from "./outcome";
import { smtpPeerInspection, startSmtpPeer } from "./smtp-peer";
import { dnsPeerControl, startDnsPeer } from "./dns-peer";
import { whatsappCloudPeer } from "./whatsapp-cloud";
import { whatsappOnpremPeer } from "./whatsapp-onprem";
import { rbmPeer } from "./rbm";
import { hlrPeer } from "./hlr";
import { nuvemshopPeer } from "./nuvemshop";
import { raPeer } from "./reclame-aqui";

const config = env();
const mix = parseMix(config.SIMULATOR_MIX);
/**
 * The receipt retry schedule, in seconds, like real providers' webhook senders: quick retries for a
 * blip (and for a receipt that outran the recording of its submit), then spaced out to one an hour,
 * for up to RECEIPT_RETRY_FOR_S after the first attempt — an API down for hours still gets every
 * receipt. SIMULATOR_RECEIPT_RETRY_SCALE multiplies every figure (tests use e.g. 0.002: 24 h -> 173 s).
 */
const RECEIPT_RETRY_SCHEDULE_S = [0.5, 1, 2, 4, 8, 16, 30, 60, 120, 300, 600, 1200, 1800, 3600];
const RECEIPT_RETRY_FOR_S = 24 * 3600;
const E164 = /^\+[1-9]\d{7,14}$/;
const INVALID_NUMBER = "+15005550001";
const OUTAGE_NUMBER = "+15005550503";
/** The receipt is lost: never posted (the status look-up still answers the outcome). */
const LOST_RECEIPT_NUMBER = "+15005550404";
/** No final status ever: no receipt, and the look-up answers `enroute` for ever. */
const NO_ANSWER_NUMBER = "+15005550408";

type Submitted = {
  id: string;
  reference: string;
  accepted: number;
  at: number;
  outcome: SimulatedOutcome;
  receipt: "pending" | "posted" | "gave_up" | "lost";
  carrier: string;
  /** What the handset's fate is known as: `enroute` until the receipt is due (or for ever, NO_ANSWER_NUMBER). */
  final: boolean;
  /** Posts of its receipt tried so far. */
  receiptAttempts: number;
};
const byReference = new Map<string, Submitted>();
const byId = new Map<string, Submitted>();
const totals = { accepted: 0, unique: 0, refused: 0, throttled: 0, receiptsPosted: 0, receiptAttempts: 0, receiptsGivenUp: 0 };

/** Submits seen in the current one-second window (fixed window, like most providers' TPS limits). */
const tps = { second: 0, count: 0 };
function throttled(): number {
  if (config.SIMULATOR_MAX_RPS <= 0) return 0;
  const now = Date.now();
  const second = Math.floor(now / 1000);
  if (second !== tps.second) {
    tps.second = second;
    tps.count = 0;
  }
  tps.count++;
  return tps.count > config.SIMULATOR_MAX_RPS ? (second + 1) * 1000 - now : 0;
}

function json(body: unknown, status = 200) {
  return new Response(JSON.stringify(body), { status, headers: { "Content-Type": "application/json" } });
}
const error = (status: number, code: string, message: string) => json({ error: { code, message } }, status);

function authorized(req: Request) {
  return req.headers.get("authorization") === `Bearer ${config.SIMULATOR_API_KEY}`;
}

type DueReceipt = { reference: string; entry: Submitted; eventId: string; receipt: Record<string, unknown>; attempt: number; firstAt: number };
const due: DueReceipt[] = [];
let posting = 0;

/** SIMULATOR_DELAY_MS after the submit, the receipt is due: it joins the queue of receipts to post. */
function postReceipt(reference: string, entry: Submitted, to: string) {
  setTimeout(() => {
    if (to === NO_ANSWER_NUMBER) return;
    entry.final = true;
    if (to === LOST_RECEIPT_NUMBER) {
      entry.receipt = "lost";
      return;
    }
    const failure = entry.outcome === "delivered" ? null : SIMULATED_ERRORS[entry.outcome];
    const eventId = `simev_${randomUUID()}`;
    const receipt = {
      event_id: eventId,
      message_id: entry.id,
      status: entry.outcome,
      error_code: failure?.code ?? null,
      error_message: failure?.message ?? null,
      carrier: entry.carrier,
      occurred_at: new Date().toISOString(),
    };
    due.push({ reference, entry, eventId, receipt, attempt: 0, firstAt: Date.now() });
    pumpReceipts();
  }, config.SIMULATOR_DELAY_MS);
}

/**
 * At most SIMULATOR_RECEIPT_CONCURRENCY posts in flight, as a provider's webhook sender does: a
 * 20,000-message campaign must not open 20,000 connections to our endpoint at once. A receipt that
 * comes due while all are busy waits, and the waiting ones go together in the next post (a JSON
 * array of up to SIMULATOR_RECEIPT_BATCH, like the batched delivery reports of high-volume
 * providers); at low volume every receipt is posted alone, at once.
 */
function pumpReceipts() {
  while (posting < config.SIMULATOR_RECEIPT_CONCURRENCY && due.length > 0) {
    const batch = due.splice(0, config.SIMULATOR_RECEIPT_BATCH);
    posting++;
    void postReceipts(batch).finally(() => {
      posting--;
      pumpReceipts();
    });
  }
}

/** The wait before retry number `attempt` (0-based), scaled; the last step repeats. */
function receiptRetryDelayMs(attempt: number, scale = config.SIMULATOR_RECEIPT_RETRY_SCALE) {
  return RECEIPT_RETRY_SCHEDULE_S[Math.min(attempt, RECEIPT_RETRY_SCHEDULE_S.length - 1)] * 1000 * scale;
}

function retryLater(item: DueReceipt, why: string) {
  const wait = receiptRetryDelayMs(item.attempt++);
  if (Date.now() + wait - item.firstAt > RECEIPT_RETRY_FOR_S * 1000 * config.SIMULATOR_RECEIPT_RETRY_SCALE) {
    console.error(`simulator receipt for ${item.reference} given up after ${item.attempt} attempts: ${why}`);
    item.entry.receipt = "gave_up";
    totals.receiptsGivenUp++;
    return;
  }
  setTimeout(() => {
    due.push(item);
    pumpReceipts();
  }, wait);
}

async function postReceipts(batch: DueReceipt[]) {
  const single = batch.length === 1;
  // The webhook id is the receipt's own event id for one receipt, a fresh id for a batch.
  const webhookId = single ? batch[0].eventId : `simbatch_${randomUUID()}`;
  const raw = JSON.stringify(single ? batch[0].receipt : batch.map((b) => b.receipt));
  totals.receiptAttempts += batch.length;
  for (const item of batch) item.entry.receiptAttempts++;
  let res: Response;
  let text: string;
  try {
    res = await fetch(config.SIMULATOR_WEBHOOK_URL, {
      method: "POST",
      // Signed at each attempt: the timestamp must be fresh.
      headers: { "Content-Type": "application/json", ...signWebhook(config.SIMULATOR_WEBHOOK_SECRET, webhookId, raw) },
      body: raw,
      signal: AbortSignal.timeout(10_000),
    });
    text = await res.text();
  } catch (e) {
    for (const item of batch) retryLater(item, (e as Error).message);
    return;
  }
  if (!res.ok) {
    if (res.status >= 400 && res.status < 500 && res.status !== 408 && res.status !== 429) {
      console.error(`simulator receipts refused: ${res.status} ${text.slice(0, 200)}`);
      for (const item of batch) {
        item.entry.receipt = "gave_up";
        totals.receiptsGivenUp++;
      }
    } else for (const item of batch) retryLater(item, `HTTP ${res.status}`);
    return;
  }
  let answers: Array<{ result?: string } | undefined> = [];
  try {
    const parsed = JSON.parse(text);
    answers = single ? [parsed] : parsed.results;
  } catch {}
  for (const [i, item] of batch.entries()) {
    // A receipt can outrun the recording of the submit's answer: `ignored` means "not known yet".
    if (!answers?.[i] || answers[i]!.result === "ignored") {
      retryLater(item, "not known yet");
      continue;
    }
    item.entry.receipt = "posted";
    totals.receiptsPosted++;
  }
}

async function submit(req: Request) {
  if (!authorized(req)) return error(401, "unauthorized", "Missing or wrong API key");
  let input: { to?: unknown; from?: unknown; body?: unknown; reference?: unknown };
  try {
    input = await req.json();
  } catch {
    return error(400, "invalid_json", "The body is not JSON");
  }
  const { to, reference } = input;
  if (typeof reference !== "string" || !reference || reference.length > 200) return error(400, "invalid_reference", "reference is required (1-200 characters)");
  if (typeof input.body !== "string") return error(400, "invalid_body", "body is required");
  const wait = throttled();
  if (wait > 0) {
    totals.throttled++;
    return new Response(JSON.stringify({ error: { code: "throttled", message: `More than ${config.SIMULATOR_MAX_RPS} submits per second` }, retry_after_ms: wait }), {
      status: 429,
      headers: { "Content-Type": "application/json", "Retry-After": String(Math.ceil(wait / 1000)) },
    });
  }
  if (to === OUTAGE_NUMBER) return error(503, "unavailable", "The simulated provider is unavailable");
  if (typeof to !== "string" || !E164.test(to) || to === INVALID_NUMBER) {
    totals.refused++;
    return error(400, "invalid_number", `The number ${String(to)} is not a valid E.164 mobile number`);
  }
  totals.accepted++;
  const known = byReference.get(reference);
  if (known) {
    known.accepted++;
    return json({ id: known.id, status: "accepted", duplicate: true }, 202);
  }
  const entry: Submitted = {
    id: `sim_${randomUUID()}`,
    reference,
    accepted: 1,
    at: Date.now(),
    outcome: simulatedOutcome(reference, mix),
    receipt: "pending",
    carrier: simulatedCarrier(to),
    final: false,
    receiptAttempts: 0,
  };
  byReference.set(reference, entry);
  byId.set(entry.id, entry);
  totals.unique++;
  void postReceipt(reference, entry, to);
  return json({ id: entry.id, status: "accepted" }, 202);
}

function lookup(req: Request) {
  if (!authorized(req)) return error(401, "unauthorized", "Missing or wrong API key");
  const reference = new URL(req.url).searchParams.get("reference") ?? "";
  const e = byReference.get(reference);
  return e ? json({ id: e.id, reference, status: "accepted" }) : error(404, "not_found", "No submit with this reference");
}

/** GET /v1/messages/{id}: the status the simulator decided for the message, receipt or not. */
function status(req: Request, id: string) {
  if (!authorized(req)) return error(401, "unauthorized", "Missing or wrong API key");
  const e = byId.get(id);
  if (!e) return error(404, "not_found", "No message with this id");
  const failure = e.final && e.outcome !== "delivered" ? SIMULATED_ERRORS[e.outcome] : null;
  return json({
    id: e.id,
    reference: e.reference,
    status: e.final ? e.outcome : "enroute",
    error_code: failure?.code ?? null,
    error_message: failure?.message ?? null,
    carrier: e.carrier,
    occurred_at: e.final ? new Date(e.at + config.SIMULATOR_DELAY_MS).toISOString() : null,
  });
}

/**
 * POST /v1/inbound {from, to, body}: a simulated mobile replies (MO). The simulator posts it to
 * our webhook like a provider would — signed, {type: "inbound", event_id, from, to, body,
 * occurred_at} — and answers 202 with our endpoint's status and answer.
 */
async function inbound(req: Request) {
  if (!authorized(req)) return error(401, "unauthorized", "Missing or wrong API key");
  let input: { from?: unknown; to?: unknown; body?: unknown };
  try {
    input = await req.json();
  } catch {
    return error(400, "invalid_json", "The body is not JSON");
  }
  if (typeof input.from !== "string" || !E164.test(input.from)) return error(400, "invalid_number", "from must be an E.164 number");
  if (typeof input.to !== "string" || !input.to) return error(400, "invalid_to", "to is required");
  if (typeof input.body !== "string") return error(400, "invalid_body", "body is required");
  const eventId = `simmo_${randomUUID()}`;
  const raw = JSON.stringify({ type: "inbound", event_id: eventId, from: input.from, to: input.to, body: input.body, occurred_at: new Date().toISOString() });
  try {
    const res = await fetch(config.SIMULATOR_WEBHOOK_URL, {
      method: "POST",
      headers: { "Content-Type": "application/json", ...signWebhook(config.SIMULATOR_WEBHOOK_SECRET, eventId, raw) },
      body: raw,
      signal: AbortSignal.timeout(10_000),
    });
    const text = await res.text();
    let answer: unknown = text;
    try {
      answer = JSON.parse(text);
    } catch {}
    return json({ event_id: eventId, webhook_status: res.status, answer }, 202);
  } catch (e) {
    return error(502, "webhook_unreachable", (e as Error).message);
  }
}

function stats(req: Request) {
  if (!authorized(req)) return error(401, "unauthorized", "Missing or wrong API key");
  const reference = new URL(req.url).searchParams.get("reference");
  if (reference !== null) {
    const e = byReference.get(reference);
    return json({
      reference,
      accepted: e?.accepted ?? 0,
      id: e?.id ?? null,
      outcome: e?.outcome ?? null,
      receipt: e?.receipt ?? null,
      receipt_attempts: e?.receiptAttempts ?? 0,
      submitted_at: e?.at ?? null,
    });
  }
  // ?times=1: when each reference's first submit arrived (ms since the epoch), to measure rates.
  if (new URL(req.url).searchParams.get("times") === "1") return json({ times: Object.fromEntries([...byReference].map(([ref, e]) => [ref, e.at])) });
  return json({ ...totals, references: Object.fromEntries([...byReference].map(([ref, e]) => [ref, e.accepted])) });
}

// The SMTP and DNS peers listen first: once /health answers, all are up.
const smtpPeer = await startSmtpPeer();
const dnsPeer = await startDnsPeer();
const server = Bun.serve({
  port: config.SIMULATOR_PORT,
  hostname: "127.0.0.1",
  async fetch(req) {
    const { pathname } = new URL(req.url);
    if (req.method === "GET" && pathname === "/health") return json({ ok: true });
    if (req.method === "POST" && pathname === "/v1/messages") return submit(req);
    if (req.method === "GET" && pathname === "/v1/messages") return lookup(req);
    if (req.method === "GET" && pathname.startsWith("/v1/messages/")) return status(req, decodeURIComponent(pathname.slice("/v1/messages/".length)));
    if (req.method === "GET" && pathname === "/v1/stats") return stats(req);
    if (req.method === "POST" && pathname === "/v1/inbound") return inbound(req);
    // Meta's WhatsApp Cloud API (Graph) and its webhooks: ./whatsapp-cloud.ts.
    const whatsapp = await whatsappCloudPeer(req, pathname);
    if (whatsapp) return whatsapp;
    // The older integration's On-Premises clients at a BSP: ./whatsapp-onprem.ts.
    const onprem = await whatsappOnpremPeer(req, pathname);
    if (onprem) return onprem;
    // Google's RCS Business Messaging and its signed agent webhooks: ./rbm.ts.
    const rbm = await rbmPeer(req, pathname);
    if (rbm) return rbm;
    // The number lookup provider (batch HLR / portability): ./hlr.ts.
    const hlr = await hlrPeer(req, pathname);
    if (hlr) return hlr;
    // Reclame Aqui's company ticket API (complaints, answers): ./reclame-aqui.ts.
    const ra = await raPeer(req, pathname);
    if (ra) return ra;
    // What the local SMTP peer received: ./smtp-peer.ts.
    const mail = await smtpPeerInspection(req, pathname);
    if (mail) return mail;
    // The DNS peer's zone: ./dns-peer.ts.
    const zone = await dnsPeerControl(req, pathname);
    if (zone) return zone;
    // The payment provider (Pix charges, the payer's page, signed events): ./psp.ts.
    const psp = await pspPeer(req, pathname);
    if (psp) return psp;
    // Nuvemshop's store API and its signed order webhooks (integrations): ./nuvemshop.ts.
    const store = await nuvemshopPeer(req, pathname);
    if (store) return store;
    return error(404, "not_found", "No such endpoint");
  },
});
console.log(
  `simulator listening on http://127.0.0.1:${server.port} (receipts to ${config.SIMULATOR_WEBHOOK_URL}, mix ${config.SIMULATOR_MIX}, delay ${config.SIMULATOR_DELAY_MS} ms)` +
    `; SMTP peer on 127.0.0.1:${smtpPeer.port} (reports to ${config.EMAIL_INBOUND_HOST}:${config.EMAIL_INBOUND_PORT}); DNS peer on 127.0.0.1:${dnsPeer.port}`,
);

/** Stops both listeners (the SMTP peer waits at most its closeTimeout for open sessions), then exits. */
let stopping = false;
async function shutdown() {
  if (stopping) return;
  stopping = true;
  server.stop(true);
  await smtpPeer.close();
  await dnsPeer.close();
  await closeRedis().catch(() => undefined);
  process.exit(0);
}
process.on("SIGTERM", shutdown);
process.on("SIGINT", shutdown);
