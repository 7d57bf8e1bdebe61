/**
 * The simulator's payment provider (issue 18, ADR 043): a loopback PSP that speaks what a real one
 * does, so `npm start` lets a new user top up and pay, and the tests pay for real over HTTP.
 *
 *   POST /psp/v1/charges      (Bearer SIMULATOR_API_KEY) {txid, amount, currency, description, due_at}
 *                             -> 201 {id, status: pending, txid, amount, pix: {payload}, pay_url}:
 *                             a Pix charge whose BR Code (api/billing/pix.ts) names the PSP's key
 *   GET  /psp/v1/charges/:id  (Bearer) -> the charge
 *   GET  /psp/pay/:id         the payer's page (what a bank app shows): amount, QR code, "copia e
 *                             cola", and a "Pagar" button (a form: no JavaScript needed)
 *   POST /psp/pay/:id         pays it: the charge becomes paid and its signed event (Standard
 *                             Webhooks, SIMULATOR_WEBHOOK_SECRET) {id, type: charge.paid, data:
 *                             {charge_id, amount, occurred_at}} is posted to
 *                             SIMULATOR_PAYMENTS_WEBHOOK_URL, retried a few times until a 2xx
 *
 * Charges live in Redis (`sim-psp`), so any simulator process answers for any.
 */
import { randomBytes } from "node:crypto";
import { pixPayload, pixQrSvg } from "../billing/pix";
import { signWebhook } from "../channels/webhook-signature";
import { env } from "../lib/env";
import { redis } from "../lib/redis";
import { keys } from "../lib/redis-keys";

const config = env();

/** The PSP's own receiving account (what a real PSP's charge names). */
const PSP_KEY = "pagamentos@psp.mensageria.test";
const PSP_NAME = "MENSAGERIA PAGAMENTOS";
const PSP_CITY = "SAO PAULO";
const EVENT_RETRY_MS = [0, 1000, 3000, 10_000];

type SimCharge = {
  id: string;
  txid: string;
  amount: number;
  description: string;
  status: "pending" | "paid";
  payload: string;
  created_at: string;
  paid_at: string | null;
  event_id: string | null;
};

const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status, headers: { "Content-Type": "application/json" } });
const error = (status: number, code: string, message: string) => json({ error: { code, message } }, status);
const html = (body: string, status = 200) =>
  new Response(
    `<!doctype html><html lang="pt-BR"><head><meta charset="utf-8"><title>PSP simulado</title></head><body style="font-family:sans-serif;max-width:36rem;margin:2rem auto">${body}</body></html>`,
    {
      status,
      headers: { "Content-Type": "text/html; charset=utf-8" },
    },
  );
const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
const brl = (centavos: number) => `R$ ${(centavos / 100).toLocaleString("pt-BR", { minimumFractionDigits: 2 })}`;

async function load(id: string): Promise<SimCharge | null> {
  const raw = await redis().hget(keys.simulatorPspCharges(), id);
  return raw ? (JSON.parse(raw) as SimCharge) : null;
}
const save = (c: SimCharge) => redis().hset(keys.simulatorPspCharges(), c.id, JSON.stringify(c));

async function create(req: Request): Promise<Response> {
  if (req.headers.get("authorization") !== `Bearer ${config.SIMULATOR_API_KEY}`) return error(401, "unauthorized", "Bearer API key required");
  let body: { txid?: unknown; amount?: unknown; currency?: unknown; description?: unknown };
  try {
    body = await req.json();
  } catch {
    return error(400, "bad_json", "Body must be JSON");
  }
  const { txid, amount, currency, description } = body;
  if (typeof txid !== "string" || !/^[A-Za-z0-9]{1,25}$/.test(txid)) return error(422, "txid", "txid: 1 to 25 letters and digits");
  if (typeof amount !== "number" || !Number.isInteger(amount) || amount <= 0) return error(422, "amount", "amount: positive integer centavos");
  if (currency !== "BRL") return error(422, "currency", "Pix charges are in BRL");
  const id = `chg_${randomBytes(12).toString("hex")}`;
  const text =
    typeof description === "string"
      ? description
          .normalize("NFD")
          .replace(/[\u0300-\u036f]/g, "")
          .replace(/[^A-Za-z0-9 .,-]/g, "")
      : "";
  const payload = pixPayload({ key: PSP_KEY, amountCentavos: amount, merchantName: PSP_NAME, merchantCity: PSP_CITY, txid, description: text || null });
  const charge: SimCharge = { id, txid, amount, description: text, status: "pending", payload, created_at: new Date().toISOString(), paid_at: null, event_id: null };
  await save(charge);
  return json({ id, status: charge.status, txid, amount, pix: { payload }, pay_url: `${config.SIMULATOR_URL}/psp/pay/${id}` }, 201);
}

/** Posts the paid event (retried on anything but a 2xx or a 4xx); answers the last HTTP status, 0 when it never got one. */
async function postEvent(c: SimCharge): Promise<number> {
  const raw = JSON.stringify({ id: c.event_id, type: "charge.paid", data: { charge_id: c.id, amount: c.amount, occurred_at: c.paid_at } });
  let status = 0;
  for (const wait of EVENT_RETRY_MS) {
    if (wait) await new Promise((r) => setTimeout(r, wait));
    try {
      const res = await fetch(config.SIMULATOR_PAYMENTS_WEBHOOK_URL, {
        method: "POST",
        headers: { "Content-Type": "application/json", ...signWebhook(config.SIMULATOR_WEBHOOK_SECRET, c.event_id!, raw) },
        body: raw,
      });
      status = res.status;
      await res.body?.cancel();
      if (status < 500) return status;
    } catch {
      status = 0;
    }
  }
  console.error(`psp: charge.paid of ${c.id} not accepted (last status ${status})`);
  return status;
}

async function payPage(id: string): Promise<Response> {
  const c = await load(id);
  if (!c) return html("<h1>Cobrança não encontrada</h1>", 404);
  if (c.status === "paid") return html(`<h1>Pago</h1><p data-status="paid">Esta cobrança de ${brl(c.amount)} já foi paga em ${escapeHtml(c.paid_at ?? "")}.</p>`);
  const qr = await pixQrSvg(c.payload);
  return html(
    `<h1>Pagar com Pix</h1><p>Valor: <strong data-amount="${c.amount}">${brl(c.amount)}</strong></p><div style="width:14rem">${qr}</div>` +
      `<p>Pix copia e cola:</p><textarea readonly rows="5" cols="60" data-payload>${escapeHtml(c.payload)}</textarea>` +
      `<form method="post" action="/psp/pay/${escapeHtml(c.id)}"><button type="submit">Pagar ${brl(c.amount)}</button></form>`,
  );
}

async function pay(id: string): Promise<Response> {
  const c = await load(id);
  if (!c) return html("<h1>Cobrança não encontrada</h1>", 404);
  if (c.status !== "paid") {
    c.status = "paid";
    c.paid_at = new Date().toISOString();
    c.event_id = `evt_${randomBytes(12).toString("hex")}`;
    await save(c);
  }
  const status = await postEvent(c);
  const ok = status >= 200 && status < 300;
  return html(
    `<h1>${ok ? "Pagamento confirmado" : "Pagamento feito, aviso pendente"}</h1><p data-status="paid">${brl(c.amount)} pagos.${ok ? "" : ` O aviso ao recebedor respondeu ${status}.`}</p>`,
  );
}

/** The PSP's routes, or null when the path is not one of them. */
export async function pspPeer(req: Request, pathname: string): Promise<Response | null> {
  if (req.method === "POST" && pathname === "/psp/v1/charges") return create(req);
  const charge = /^\/psp\/v1\/charges\/([A-Za-z0-9_]{1,80})$/.exec(pathname);
  if (charge && req.method === "GET") {
    if (req.headers.get("authorization") !== `Bearer ${config.SIMULATOR_API_KEY}`) return error(401, "unauthorized", "Bearer API key required");
    const c = await load(charge[1]);
    return c ? json(c) : error(404, "not_found", "No such charge");
  }
  const page = /^\/psp\/pay\/([A-Za-z0-9_]{1,80})$/.exec(pathname);
  if (page && req.method === "GET") return payPage(page[1]);
  if (page && req.method === "POST") return pay(page[1]);
  return null;
}
