/**
 * The simulator's Nuvemshop (Tiendanube) store API (issue 23, ADR 066): what
 * api/integrations/nuvemshop.ts reaches at NUVEMSHOP_API_URL when it is not the real one, so
 * `npm start` and the tests connect a store, read its orders and receive its signed webhooks.
 *
 *   Under /nuvemshop/v1/{store_id}, header `Authentication: bearer <the store's access token>`
 *   (401 otherwise; 404 for a store it does not know):
 *     GET  /store                 {id, name: {pt}}
 *     GET  /orders/{id}           the order (404 if none): id, number, total ("12.34"), currency,
 *                                 customer {name, email, phone}, contact_*, status, payment_status,
 *                                 shipping_status, shipping_tracking_number
 *     POST /orders                creates an order {customer, total?, products?}: 201, then its
 *                                 order/created webhook
 *     GET/POST /webhooks, DELETE /webhooks/{id}   {event, url}
 *   Webhooks: POST {store_id, event, id} to each URL registered for the event, signed with the
 *   store's app secret (HMAC-SHA256 of the raw body, hex, `x-linkedstore-hmac-sha256`), retried
 *   (0, 1, 3 s) until a 2xx.
 *   Test controls under /nuvemshop/_sim (Bearer SIMULATOR_API_KEY):
 *     POST /stores {name?}                        -> 201 {store_id, access_token, app_secret}
 *     POST /{store}/orders {customer, total?}     -> 201 the order (and its order/created)
 *     POST /{store}/orders/{id}/paid | fulfilled  -> the order paid / shipped with a tracking code, and its webhook
 *     POST /{store}/orders/{id}/resend {event, bad_signature?} -> the event posted again (a retry), or signed wrong
 *     GET  /{store}/deliveries                    -> every webhook post: {event, order_id, url, status}
 * State is in memory (one simulator process): a restart forgets the stores.
 */
import { randomBytes } from "node:crypto";
import { nuvemshopSignature } from "../integrations/nuvemshop";
import { env } from "../lib/env";

const PATH = "/nuvemshop";
const RETRY_MS = [0, 1000, 3000];

type SimOrder = {
  id: number;
  number: number;
  total: string;
  currency: string;
  customer: { id: number; name: string; email: string | null; phone: string | null };
  contact_name: string;
  contact_email: string | null;
  contact_phone: string | null;
  status: string;
  payment_status: string;
  shipping_status: string;
  shipping_tracking_number: string | null;
  created_at: string;
};
type SimStore = {
  id: string;
  name: string;
  token: string;
  secret: string;
  orders: Map<string, SimOrder>;
  webhooks: Array<{ id: number; event: string; url: string }>;
  deliveries: Array<{ event: string; order_id: string; url: string; status: number | null }>;
};

const stores = new Map<string, SimStore>();
let nextStore = 4_000_000 + Math.floor(Math.random() * 1_000_000);
let nextOrder = 900_000_000;
let nextWebhook = 1;

const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status, headers: { "Content-Type": "application/json" } });
const problem = (status: number, code: string, description: string) => json({ code: status, message: code, description }, status);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function body(req: Request): Promise<Record<string, unknown>> {
  try {
    const b = await req.json();
    return b && typeof b === "object" ? (b as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

const text = (v: unknown) => (typeof v === "string" && v.trim() ? v.trim() : null);

/** Posts one event to every URL the store registered for it, signed; retried until a 2xx. */
function emit(store: SimStore, event: string, orderId: string, opts: { badSignature?: boolean } = {}) {
  const raw = JSON.stringify({ store_id: Number(store.id), event, id: Number(orderId) });
  const signature = nuvemshopSignature(raw, opts.badSignature ? `${store.secret}x` : store.secret);
  for (const hook of store.webhooks.filter((w) => w.event === event)) {
    const delivery = { event, order_id: orderId, url: hook.url, status: null as number | null };
    store.deliveries.push(delivery);
    void (async () => {
      for (const wait of RETRY_MS) {
        await sleep(wait);
        try {
          const res = await fetch(hook.url, { method: "POST", headers: { "Content-Type": "application/json", "x-linkedstore-hmac-sha256": signature }, body: raw });
          delivery.status = res.status;
          await res.body?.cancel();
          if (res.ok || opts.badSignature || res.status === 404) return;
        } catch {
          delivery.status = 0;
        }
      }
    })();
  }
}

function createOrder(store: SimStore, b: Record<string, unknown>): SimOrder {
  const c = (b.customer ?? {}) as Record<string, unknown>;
  const id = nextOrder++;
  const order: SimOrder = {
    id,
    number: 100 + store.orders.size + 1,
    total: text(b.total) ?? "149.90",
    currency: text(b.currency) ?? "BRL",
    customer: { id: id + 1, name: text(c.name) ?? "Cliente", email: text(c.email), phone: text(c.phone) },
    contact_name: text(c.name) ?? "Cliente",
    contact_email: text(c.email),
    contact_phone: text(b.contact_phone) ?? text(c.phone),
    status: "open",
    payment_status: "pending",
    shipping_status: "unpacked",
    shipping_tracking_number: null,
    created_at: new Date().toISOString(),
  };
  store.orders.set(String(id), order);
  emit(store, "order/created", String(id));
  return order;
}

/** The store API as the app reaches it (bearer token). */
async function storeApi(req: Request, store: SimStore, rest: string): Promise<Response> {
  if (req.headers.get("authentication") !== `bearer ${store.token}`) return problem(401, "Unauthorized", "Invalid access token");
  if (req.method === "GET" && rest === "/store") return json({ id: Number(store.id), name: { pt: store.name } });
  if (req.method === "POST" && rest === "/orders") return json(createOrder(store, await body(req)), 201);
  const order = /^\/orders\/([^/]+)$/.exec(rest);
  if (req.method === "GET" && order) {
    const o = store.orders.get(decodeURIComponent(order[1]));
    return o ? json(o) : problem(404, "Not Found", "Order not found");
  }
  if (rest === "/webhooks" && req.method === "GET") return json(store.webhooks);
  if (rest === "/webhooks" && req.method === "POST") {
    const b = await body(req);
    const event = text(b.event);
    const url = text(b.url);
    if (!event || !url) return problem(422, "Unprocessable Entity", "event and url are required");
    const hook = { id: nextWebhook++, event, url };
    store.webhooks.push(hook);
    return json(hook, 201);
  }
  const hook = /^\/webhooks\/(\d+)$/.exec(rest);
  if (req.method === "DELETE" && hook) {
    const before = store.webhooks.length;
    store.webhooks = store.webhooks.filter((w) => w.id !== Number(hook[1]));
    return before === store.webhooks.length ? problem(404, "Not Found", "Webhook not found") : json({});
  }
  return problem(404, "Not Found", "No such endpoint");
}

/** The test controls (SIMULATOR_API_KEY). */
async function controls(req: Request, rest: string): Promise<Response> {
  if (req.headers.get("authorization") !== `Bearer ${env().SIMULATOR_API_KEY}`) return problem(401, "Unauthorized", "Invalid API key");
  if (req.method === "POST" && rest === "/stores") {
    const b = await body(req);
    const store: SimStore = {
      id: String(nextStore++),
      name: text(b.name) ?? "Loja Simulada",
      token: randomBytes(20).toString("hex"),
      secret: randomBytes(24).toString("hex"),
      orders: new Map(),
      webhooks: [],
      deliveries: [],
    };
    stores.set(store.id, store);
    return json({ store_id: store.id, access_token: store.token, app_secret: store.secret, name: store.name }, 201);
  }
  const m = /^\/([^/]+)(\/.*)$/.exec(rest);
  const store = m ? stores.get(m[1]) : undefined;
  if (!m || !store) return problem(404, "Not Found", "Store not found");
  const path = m[2];
  if (req.method === "GET" && path === "/deliveries") return json(store.deliveries);
  if (req.method === "POST" && path === "/orders") return json(createOrder(store, await body(req)), 201);
  const step = /^\/orders\/([^/]+)\/(paid|fulfilled|resend)$/.exec(path);
  const order = step ? store.orders.get(step[1]) : undefined;
  if (!step || !order || req.method !== "POST") return problem(404, "Not Found", "No such order or endpoint");
  if (step[2] === "paid") {
    order.payment_status = "paid";
    emit(store, "order/paid", step[1]);
  } else if (step[2] === "fulfilled") {
    order.shipping_status = "shipped";
    order.shipping_tracking_number = `BR${String(order.id).slice(-9)}SIM`;
    emit(store, "order/fulfilled", step[1]);
  } else {
    const b = await body(req);
    emit(store, text(b.event) ?? "order/created", step[1], { badSignature: b.bad_signature === true });
  }
  return json(order);
}

export async function nuvemshopPeer(req: Request, pathname: string): Promise<Response | null> {
  if (!pathname.startsWith(`${PATH}/`)) return null;
  const rest = pathname.slice(PATH.length);
  if (rest.startsWith("/_sim/")) return controls(req, rest.slice("/_sim".length));
  const m = /^\/v1\/([^/]+)(\/.*)$/.exec(rest);
  if (!m) return problem(404, "Not Found", "No such endpoint");
  const store = stores.get(decodeURIComponent(m[1]));
  if (!store) return problem(404, "Not Found", "Store not found");
  return storeApi(req, store, m[2]);
}
