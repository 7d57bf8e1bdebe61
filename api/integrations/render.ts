/**
 * A rule filled with an order (ADR 066, 072): the order's values as the rules name them
 * ({{first_name}}, {{order_number}}, {{total}}, {{tracking_code}}, {{store}}) and the filling of a
 * text — an SMS or e-mail rule's text, or each parameter of a WhatsApp rule's template.
 */
import { RULE_VARIABLES } from "./constants";
import type { Order } from "./platform";

/** "12345 → R$ 123,45" in the order's currency, as the buyer reads it (pt-BR). */
const money = (centavos: number, currency: string) => new Intl.NumberFormat("pt-BR", { style: "currency", currency }).format(centavos / 100);

export function orderVariables(order: Order, store: string): Record<string, string> {
  return {
    first_name: order.customer.name.split(/\s+/)[0] ?? "",
    order_number: order.number,
    total: money(order.total, /^[A-Z]{3}$/.test(order.currency) ? order.currency : "BRL"),
    tracking_code: order.trackingCode ?? "",
    store,
  };
}

const PLACEHOLDER = /\{\{\s*([a-z_]+)\s*\}\}/g;

/** The text with each known {{variable}} replaced by its value; an unknown one is left as written. */
export const renderRule = (text: string, vars: Record<string, string>) => text.replace(PLACEHOLDER, (whole, name: string) => (Object.hasOwn(vars, name) ? vars[name] : whole));

/** The {{names}} a text uses that are none of the rules' variables (a typo the buyer would read as written). */
export const unknownVariables = (text: string) =>
  [...text.matchAll(/\{\{\s*([^}]*?)\s*\}\}/g)].map((m) => m[1]).filter((name) => !(RULE_VARIABLES as readonly string[]).includes(name));
