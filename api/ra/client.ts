/**
 * The Reclame Aqui adapter (issue 23, ADR 067): the company API of Reclame Aqui's ticket platform
 * (Hugme, "API de Tickets"), behind the small `RaApi` interface the use-cases (./services) speak.
 * Every request goes through the guarded client (api/lib/outbound.ts, ADR 021).
 *
 * The shape it speaks (the simulator's loopback peer, api/simulator/reclame-aqui.ts, speaks the same):
 *   POST {base}/auth/oauth/token        Authorization: Basic base64(client_id:client_secret),
 *        grant_type=client_credentials  -> {access_token, token_type: "bearer", expires_in}; 401 {error: "invalid_client"}
 *   GET  {base}/ticket/v1/tickets?company={id}&page[number]=N&page[size]=S&last_modification_date[gte]=ISO
 *        -> {data: [ticket], meta: {page: {number, size, total_pages}, total}}
 *   GET  {base}/ticket/v1/tickets/{id}?company={id} -> ticket
 *   POST {base}/ticket/v1/tickets/message/public   {company, id, message}        -> 201 {success, interaction_id}
 *   POST {base}/ticket/v1/tickets/message/private  {company, id, message, email} -> 201 {success, interaction_id}
 *   POST {base}/ticket/v1/tickets/evaluation       {company, id}                 -> 201 {success}  (asks the consumer to evaluate)
 *   Errors: {error: {code, message}} with 400/404/409/422 (the request's fault), 401 (token), 429/5xx (try later).
 * A ticket: {id, complaint_title, complaint_content, customer: {name, email: [..], phone_numbers: [..]},
 *   ra_status: {id, name}, creation_date, last_modification_date, interactions: [{ticket_interaction_id,
 *   ticket_interaction_type: {id, name: "RESPOSTA_EMPRESA" | "REPLICA_CONSUMIDOR" | "MENSAGEM_PRIVADA_EMPRESA" |
 *   "MENSAGEM_PRIVADA_CONSUMIDOR"}, privacy, message, creation_date}], rating: 0..10 | null,
 *   ra: {resolved_issue: bool | null, back_doing_business: bool | null}}.
 */
import { env } from "../lib/env";
import { AppError } from "../lib/errors";
import { outboundFetch, type OutboundResponse } from "../lib/outbound";

export type RaStatus = "unanswered" | "answered" | "replied" | "evaluated";
export type RaInteraction = { raId: string; author: "company" | "consumer"; visibility: "public" | "private"; body: string; at: Date };
export type RaTicket = {
  raId: string;
  title: string;
  description: string;
  consumerName: string | null;
  consumerEmail: string | null;
  consumerPhone: string | null;
  status: RaStatus;
  createdAt: Date;
  updatedAt: Date;
  interactions: RaInteraction[];
  score: number | null;
  resolved: boolean | null;
  wouldReturn: boolean | null;
};
export type RaCredentials = { companyId: string; clientId: string; clientSecret: string };

/** What a caller of the RA API may go wrong with, in our words (translated by the screens and the API). */
export type RaFailure = "credentials" | "not_found" | "rejected" | "unavailable";
export class RaError extends Error {
  constructor(
    readonly kind: RaFailure,
    detail: string,
  ) {
    super(detail);
  }
}

/** The contract: what the use-cases need of Reclame Aqui. */
export interface RaApi {
  /** Checks the credentials (a token). */
  verify(c: RaCredentials): Promise<void>;
  /** Every ticket of the company modified since `since` (all when null), all pages. */
  tickets(c: RaCredentials, since: Date | null): Promise<RaTicket[]>;
  ticket(c: RaCredentials, raId: string): Promise<RaTicket>;
  /** Posts an answer; its RA interaction id. */
  answer(c: RaCredentials, raId: string, visibility: "public" | "private", message: string, email?: string | null): Promise<string>;
  requestEvaluation(c: RaCredentials, raId: string): Promise<void>;
}

/** Under SIMULATOR_URL: the simulator's Reclame Aqui peer. */
export const SIMULATED_RA_PATH = "/ra";
const PAGE_SIZE = 50;
const MAX_PAGES = 200;

const STATUS_BY_ID: Record<number, RaStatus> = { 5: "unanswered", 6: "answered", 7: "replied", 8: "evaluated", 9: "evaluated" };
const TYPES: Record<string, Pick<RaInteraction, "author" | "visibility">> = {
  RESPOSTA_EMPRESA: { author: "company", visibility: "public" },
  REPLICA_CONSUMIDOR: { author: "consumer", visibility: "public" },
  MENSAGEM_PRIVADA_EMPRESA: { author: "company", visibility: "private" },
  MENSAGEM_PRIVADA_CONSUMIDOR: { author: "consumer", visibility: "private" },
};

const first = (v: unknown) => (Array.isArray(v) ? v[0] : v);
const str = (v: unknown) => (typeof v === "string" && v ? v : null);
const date = (v: unknown): Date | null => {
  const d = typeof v === "string" ? new Date(v) : null;
  return d && !Number.isNaN(d.getTime()) ? d : null;
};

/** One wire ticket in our words; null when it is not one (a bad ticket fails the whole sync, nothing written). */
type WireInteraction = { ticket_interaction_id?: unknown; ticket_interaction_type?: { name?: unknown }; privacy?: unknown; message?: unknown; creation_date?: unknown };
type WireTicket = {
  id?: unknown;
  complaint_title?: unknown;
  complaint_content?: unknown;
  customer?: { name?: unknown; email?: unknown; phone_numbers?: unknown };
  ra_status?: { id?: unknown };
  creation_date?: unknown;
  last_modification_date?: unknown;
  interactions?: unknown;
  rating?: unknown;
  ra?: { resolved_issue?: unknown; back_doing_business?: unknown };
};

export function ticketFromWire(input: unknown): RaTicket | null {
  if (!input || typeof input !== "object") return null;
  const w = input as WireTicket;
  const raId = w.id === undefined || w.id === null ? null : String(w.id);
  const createdAt = date(w.creation_date);
  const status = STATUS_BY_ID[Number(w.ra_status?.id)];
  if (!raId || !createdAt || !status || typeof w.complaint_title !== "string") return null;
  const interactions: RaInteraction[] = [];
  for (const i of (Array.isArray(w.interactions) ? w.interactions : []) as WireInteraction[]) {
    const type = TYPES[String(i?.ticket_interaction_type?.name)];
    const at = date(i?.creation_date);
    if (!type || !at || i?.ticket_interaction_id === undefined) return null;
    interactions.push({ raId: String(i.ticket_interaction_id), ...type, visibility: i.privacy === true ? "private" : type.visibility, body: String(i.message ?? ""), at });
  }
  const rating = typeof w.rating === "number" && w.rating >= 0 && w.rating <= 10 ? Math.round(w.rating) : null;
  const bool = (v: unknown) => (typeof v === "boolean" ? v : null);
  return {
    raId,
    title: (w.complaint_title as string).slice(0, 300),
    description: String(w.complaint_content ?? ""),
    consumerName: str(w.customer?.name),
    consumerEmail: str(first(w.customer?.email)),
    consumerPhone: str(first(w.customer?.phone_numbers)),
    status,
    createdAt,
    updatedAt: date(w.last_modification_date) ?? createdAt,
    interactions,
    score: rating,
    resolved: bool(w.ra?.resolved_issue),
    wouldReturn: bool(w.ra?.back_doing_business),
  };
}

export class HttpRaApi implements RaApi {
  private tokens = new Map<string, { token: string; until: number }>();
  constructor(private readonly baseUrl: string) {}

  private async call(url: string, init: { method?: string; headers?: Record<string, string>; body?: string }): Promise<OutboundResponse> {
    try {
      return await outboundFetch(url, {
        method: init.method ?? "GET",
        headers: { Accept: "application/json", ...init.headers },
        body: init.body,
        timeoutMs: 20_000,
        maxBytes: 8 << 20,
        trust: "platform",
      });
    } catch (e) {
      throw new RaError("unavailable", e instanceof Error ? e.message : String(e));
    }
  }

  private async token(c: RaCredentials, fresh = false): Promise<string> {
    const key = `${c.clientId}\n${c.clientSecret}`;
    const kept = this.tokens.get(key);
    if (!fresh && kept && kept.until > Date.now()) return kept.token;
    const res = await this.call(`${this.baseUrl}/auth/oauth/token`, {
      method: "POST",
      headers: { Authorization: `Basic ${Buffer.from(`${c.clientId}:${c.clientSecret}`).toString("base64")}`, "Content-Type": "application/x-www-form-urlencoded" },
      body: "grant_type=client_credentials",
    });
    if (res.status === 400 || res.status === 401 || res.status === 403) throw new RaError("credentials", `token: HTTP ${res.status}`);
    if (res.status !== 200) throw new RaError("unavailable", `token: HTTP ${res.status}`);
    let body: { access_token?: unknown; expires_in?: unknown };
    try {
      body = res.json();
    } catch {
      throw new RaError("unavailable", "token: answer is not JSON");
    }
    if (typeof body.access_token !== "string") throw new RaError("unavailable", "token: no access_token");
    const ttl = typeof body.expires_in === "number" ? body.expires_in : 300;
    this.tokens.set(key, { token: body.access_token, until: Date.now() + Math.max(0, ttl - 30) * 1000 });
    return body.access_token;
  }

  /** An authorized call; a 401 gets one new token and one more try. */
  private async authed(c: RaCredentials, path: string, init: { method?: string; body?: unknown } = {}): Promise<Record<string, unknown>> {
    for (let attempt = 0; ; attempt++) {
      const token = await this.token(c, attempt > 0);
      const res = await this.call(`${this.baseUrl}${path}`, {
        method: init.method,
        headers: { Authorization: `Bearer ${token}`, ...(init.body ? { "Content-Type": "application/json" } : {}) },
        body: init.body ? JSON.stringify(init.body) : undefined,
      });
      if (res.status === 401 && attempt === 0) continue;
      if (res.status === 401 || res.status === 403) throw new RaError("credentials", `${path}: HTTP ${res.status}`);
      if (res.status === 404) throw new RaError("not_found", `${path}: HTTP 404`);
      if (res.status === 400 || res.status === 409 || res.status === 422) throw new RaError("rejected", `${path}: HTTP ${res.status} ${res.text().slice(0, 200)}`);
      if (res.status < 200 || res.status > 299) throw new RaError("unavailable", `${path}: HTTP ${res.status}`);
      try {
        return res.status === 204 ? {} : res.json();
      } catch {
        throw new RaError("unavailable", `${path}: answer is not JSON`);
      }
    }
  }

  async verify(c: RaCredentials): Promise<void> {
    await this.token(c, true);
    // The company must be one the credentials reach: one page of one ticket.
    await this.authed(c, `/ticket/v1/tickets?company=${encodeURIComponent(c.companyId)}&page[number]=1&page[size]=1`);
  }

  async tickets(c: RaCredentials, since: Date | null): Promise<RaTicket[]> {
    const out: RaTicket[] = [];
    for (let page = 1; page <= MAX_PAGES; page++) {
      const q = new URLSearchParams({ company: c.companyId, "page[number]": String(page), "page[size]": String(PAGE_SIZE) });
      if (since) q.set("last_modification_date[gte]", since.toISOString());
      const body = (await this.authed(c, `/ticket/v1/tickets?${q}`)) as { data?: unknown[]; meta?: { page?: { total_pages?: unknown } } };
      if (!Array.isArray(body?.data)) throw new RaError("unavailable", "tickets: no data");
      for (const w of body.data) {
        const t = ticketFromWire(w);
        if (!t) throw new RaError("unavailable", `tickets: a ticket that is not one (${String((w as WireTicket | null)?.id)})`);
        out.push(t);
      }
      const pages = Number(body?.meta?.page?.total_pages ?? 1);
      if (page >= pages || body.data.length === 0) return out;
    }
    return out;
  }

  async ticket(c: RaCredentials, raId: string): Promise<RaTicket> {
    const t = ticketFromWire(await this.authed(c, `/ticket/v1/tickets/${encodeURIComponent(raId)}?company=${encodeURIComponent(c.companyId)}`));
    if (!t) throw new RaError("unavailable", "ticket: not one");
    return t;
  }

  async answer(c: RaCredentials, raId: string, visibility: "public" | "private", message: string, email?: string | null): Promise<string> {
    const body = await this.authed(c, `/ticket/v1/tickets/message/${visibility}`, {
      method: "POST",
      body: { company: c.companyId, id: raId, message, ...(visibility === "private" && email ? { email } : {}) },
    });
    const id = body?.interaction_id;
    if (id === undefined || id === null) throw new RaError("unavailable", "answer: no interaction_id");
    return String(id);
  }

  async requestEvaluation(c: RaCredentials, raId: string): Promise<void> {
    await this.authed(c, "/ticket/v1/tickets/evaluation", { method: "POST", body: { company: c.companyId, id: raId } });
  }
}

let cached: RaApi | null | undefined;

/** The RA API in force: RA_API_URL, else (outside production) the simulator's peer; null in production without it. */
export function raApi(): RaApi | null {
  if (cached !== undefined) return cached;
  const e = env();
  const trim = (u: string) => u.replace(/\/+$/, "");
  if (e.RA_API_URL) cached = new HttpRaApi(trim(e.RA_API_URL));
  else if (e.NODE_ENV !== "production") cached = new HttpRaApi(`${trim(e.SIMULATOR_URL)}${SIMULATED_RA_PATH}`);
  else cached = null;
  return cached;
}

/** The API, or PROVIDER_UNAVAILABLE. */
export function requireRaApi(): RaApi {
  const a = raApi();
  if (!a) throw new AppError("PROVIDER_UNAVAILABLE");
  return a;
}

/** Whether /ra talks to the simulator's peer (the screens then say which credentials it takes). */
export function raSimulated(): boolean {
  const e = env();
  return !e.RA_API_URL && e.NODE_ENV !== "production";
}
