/**
 * Nuvemshop (Tiendanube) as an integration platform (issue 23, ADR 066), its REST API as the
 * platform documents it, reached through the guarded client (api/lib/outbound.ts, ADR 021):
 *   - base NUVEMSHOP_API_URL (`https://api.nuvemshop.com.br`; elsewhere the simulator's store,
 *     api/simulator/nuvemshop.ts), every call `{base}/v1/{store_id}/…` with the header
 *     `Authentication: bearer <access token>` and a User-Agent naming the app;
 *   - GET /store (the store's name: the credentials check), GET /orders/{id} (the order: the
 *     customer's name, e-mail and phone, number, total, shipping tracking), POST /orders (a test
 *     order), GET/POST/DELETE /webhooks (order/created, order/paid, order/fulfilled at our URL);
 *   - webhooks arrive as `{store_id, event, id}` signed with the app's secret: HMAC-SHA256 of the
 *     raw body, hex, in `x-linkedstore-hmac-sha256`.
 */
import { createHmac } from "node:crypto";
import { safeEqual } from "../lib/crypto";
import { env } from "../lib/env";
import { AppError } from "../lib/errors";
import { isOutboundError, type OutboundResponse, outboundFetch } from "../lib/outbound";
import type { Credentials, Order, OrderEvent, Platform, Secrets } from "./platform";

const EVENTS: Record<string, OrderEvent> = { "order/created": "order/created", "order/paid": "order/paid", "order/fulfilled": "order/fulfilled" };
const SIGNATURE_HEADER = "x-linkedstore-hmac-sha256";
const USER_AGENT = "Mensageria (integrations)";

export const nuvemshopSignature = (rawBody: string, appSecret: string) => createHmac("sha256", appSecret).update(rawBody).digest("hex");

/** A store's answer other than 2xx: `status` 401/403/404 mean the credentials or the store are wrong. */
class StoreError extends Error {
  constructor(readonly status: number) {
    super(`nuvemshop answered ${status}`);
  }
}

async function call(storeId: string, token: string, path: string, init: { method?: string; body?: unknown } = {}): Promise<OutboundResponse> {
  const base = env().NUVEMSHOP_API_URL.replace(/\/+$/, "");
  let res: OutboundResponse;
  try {
    res = await outboundFetch(`${base}/v1/${encodeURIComponent(storeId)}${path}`, {
      method: init.method ?? "GET",
      headers: {
        Authentication: `bearer ${token}`,
        "User-Agent": USER_AGENT,
        Accept: "application/json",
        ...(init.body === undefined ? {} : { "Content-Type": "application/json" }),
      },
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
      timeoutMs: 10_000,
      maxBytes: 1024 * 1024,
    });
  } catch (e) {
    if (isOutboundError(e)) throw new AppError("PROVIDER_UNAVAILABLE");
    throw e;
  }
  if (res.status < 200 || res.status >= 300) throw new StoreError(res.status);
  return res;
}

/** A store refusal as the form's field: the token (401/403) or the store id (404); anything else 502. */
function refused(e: unknown): never {
  if (e instanceof StoreError && (e.status === 401 || e.status === 403)) throw new AppError("VALIDATION", { fields: { access_token: ["integrations.errors.tokenRefused"] } });
  if (e instanceof StoreError && e.status === 404) throw new AppError("VALIDATION", { fields: { store_id: ["integrations.errors.storeUnknown"] } });
  if (e instanceof StoreError) throw new AppError("PROVIDER_UNAVAILABLE");
  throw e;
}

const str = (v: unknown) => (typeof v === "string" && v.trim() ? v.trim() : typeof v === "number" ? String(v) : null);

/** "123.45" (the store's decimal string) as centavos. */
export function centavos(total: unknown): number {
  const s = typeof total === "number" ? total.toFixed(2) : String(total ?? "0");
  const m = /^(\d+)(?:[.,](\d{1,2}))?$/.exec(s.trim());
  return m ? Number(m[1]) * 100 + Number((m[2] ?? "0").padEnd(2, "0")) : 0;
}

// biome-ignore lint/suspicious/noExplicitAny: the store's JSON; each field is checked as it is read
export function orderFrom(o: any): Order {
  const c = o?.customer ?? {};
  return {
    id: String(o?.id ?? ""),
    number: str(o?.number) ?? String(o?.id ?? ""),
    total: centavos(o?.total),
    currency: (str(o?.currency) ?? "BRL").toUpperCase(),
    customer: {
      name: str(c.name) ?? str(o?.contact_name) ?? "",
      email: str(c.email) ?? str(o?.contact_email),
      phone: str(o?.contact_phone) ?? str(c.phone) ?? str(o?.shipping_address?.phone),
    },
    trackingCode: str(o?.shipping_tracking_number),
  };
}

export const nuvemshop: Platform = {
  kind: "nuvemshop",
  label: "Nuvemshop",
  events: EVENTS,
  async connect(c: Credentials) {
    try {
      const store = (await call(c.storeId, c.accessToken, "/store")).json();
      const name = store?.name;
      return { name: (typeof name === "string" ? name : (str(name?.pt) ?? str(name?.es) ?? str(Object.values(name ?? {})[0]))) ?? "" };
    } catch (e) {
      refused(e);
    }
  },
  async subscribe(storeId: string, secrets: Secrets, url: string) {
    try {
      const existing = (await call(storeId, secrets.accessToken, "/webhooks")).json();
      const have = new Set((Array.isArray(existing) ? existing : []).filter((w) => w?.url === url).map((w) => w.event));
      for (const event of Object.keys(EVENTS)) if (!have.has(event)) await call(storeId, secrets.accessToken, "/webhooks", { method: "POST", body: { event, url } });
    } catch (e) {
      refused(e);
    }
  },
  async unsubscribe(storeId: string, secrets: Secrets, url: string) {
    try {
      const existing = (await call(storeId, secrets.accessToken, "/webhooks")).json();
      for (const w of Array.isArray(existing) ? existing : [])
        if (w?.url === url) await call(storeId, secrets.accessToken, `/webhooks/${encodeURIComponent(String(w.id))}`, { method: "DELETE" });
    } catch {
      // Best effort: the store may already have forgotten the app; our rows go anyway.
    }
  },
  verify(rawBody: string, headers: Headers, secrets: Secrets) {
    const given = headers.get(SIGNATURE_HEADER)?.trim().toLowerCase();
    return Boolean(given) && safeEqual(given!, nuvemshopSignature(rawBody, secrets.appSecret));
  },
  parse(json: unknown) {
    const j = json as { store_id?: unknown; event?: unknown; id?: unknown } | null;
    const storeId = str(j?.store_id);
    const orderId = str(j?.id);
    const event = typeof j?.event === "string" ? j.event : "";
    return storeId && orderId && event ? { storeId, event, orderId } : null;
  },
  async order(storeId: string, secrets: Secrets, orderId: string) {
    return orderFrom((await call(storeId, secrets.accessToken, `/orders/${encodeURIComponent(orderId)}`)).json());
  },
  async testOrder(storeId: string, secrets: Secrets, buyer) {
    try {
      const o = (
        await call(storeId, secrets.accessToken, "/orders", {
          method: "POST",
          body: {
            customer: { name: buyer.name, email: buyer.email, phone: buyer.phone },
            contact_phone: buyer.phone,
            products: [{ name: "Pedido de teste", quantity: 1, price: "1.00" }],
            total: "1.00",
            currency: "BRL",
            send_confirmation_email: false,
          },
        })
      ).json();
      return { orderId: String(o?.id ?? "") };
    } catch (e) {
      refused(e);
    }
  },
};
