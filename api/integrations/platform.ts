/**
 * What an e-commerce platform is to the integrations (issue 23, ADR 066): one object per kind, so
 * the use-cases (./services.ts), the webhook route and the worker (./events.ts) call
 * `platform(kind).…` and no other file names a platform. Adding another platform is one more
 * module implementing this and one line in PLATFORMS.
 */
import { nuvemshop } from "./nuvemshop";

import type { OrderEvent } from "./constants";

export { ORDER_EVENTS, type OrderEvent } from "./constants";

/** An order as the rules' variables need it (the buyer, the number, the total, the tracking). */
export type Order = {
  id: string;
  number: string;
  /** Minor units (centavos). */
  total: number;
  currency: string;
  customer: { name: string; email: string | null; phone: string | null };
  trackingCode: string | null;
};

/** The credentials a form gives at install (store id, token, the app's secret). */
export type Credentials = { storeId: string; accessToken: string; appSecret: string };
/** The secrets kept sealed (api/lib/crypto.ts) in integrations.secrets. */
export type Secrets = { accessToken: string; appSecret: string };

/** One event as the platform's webhook names it. */
export type PlatformEvent = { storeId: string; event: string; orderId: string };

export type Platform = {
  kind: string;
  /** The name shown on screens. */
  label: string;
  /** The webhook's event names this platform posts, mapped onto ours (the same names for Nuvemshop). */
  events: Record<string, OrderEvent>;
  /** Checks the credentials at the store and answers the store's name; AppError 422 naming the field the store refused, 502 when it did not answer. */
  connect(c: Credentials): Promise<{ name: string }>;
  /** Points the store's order webhooks at `url` (installed, or re-pointed after new credentials). */
  subscribe(storeId: string, secrets: Secrets, url: string): Promise<void>;
  /** Stops them (uninstall; best effort). */
  unsubscribe(storeId: string, secrets: Secrets, url: string): Promise<void>;
  /** Whether the raw body is signed with the app's secret (the platform's header). */
  verify(rawBody: string, headers: Headers, secrets: Secrets): boolean;
  /** The event the body names, or null when it is none of ours. */
  parse(json: unknown): PlatformEvent | null;
  /** The order, read at the store through the guarded client. */
  order(storeId: string, secrets: Secrets, orderId: string): Promise<Order>;
  /** Creates a test order at the store for `buyer`; the store then posts its order/created. */
  testOrder(storeId: string, secrets: Secrets, buyer: { name: string; email: string | null; phone: string | null }): Promise<{ orderId: string }>;
};

export const PLATFORMS: Record<string, Platform> = { nuvemshop };
export const PLATFORM_KINDS = Object.keys(PLATFORMS);

export const platform = (kind: string): Platform | null => (Object.hasOwn(PLATFORMS, kind) ? PLATFORMS[kind] : null);
