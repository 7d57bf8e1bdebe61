/**
 * The simulator's loopback Reclame Aqui peer (issue 23, ADR 067): the company ticket API the adapter
 * speaks (api/ra/client.ts has the shape), so `npm start` and the tests connect, import and answer
 * complaints without Reclame Aqui.
 *
 * Its rules (documented for whoever tries it by hand, e.g. on /ra of a fresh machine):
 * - Token: POST /ra/auth/oauth/token, Basic base64(client_id:client_secret), grant_type=client_credentials.
 *   Any client_id; a client_secret of 8 or more characters is accepted except `invalid-secret` (401
 *   {error: "invalid_client"}). -> {access_token, token_type: "bearer", expires_in: 3600}.
 * - Companies: any company id of 1 to 12 digits is a company (another: 404); on first use it holds
 *   six seeded complaints spread over the last two months (unanswered, answered, a consumer's reply,
 *   two evaluated: one resolved 9/10 "would do business again", one not resolved 3/10; a recent one).
 * - GET /ra/ticket/v1/tickets?company=&page[number]=&page[size]=&last_modification_date[gte]= (oldest
 *   change first) and GET /ra/ticket/v1/tickets/{id}?company=.
 * - POST /ra/ticket/v1/tickets/message/public {company, id, message}: the company's public answer
 *   (the ticket becomes answered); an evaluated ticket: 409; a message of 1 to 4,000 characters or 422.
 *   POST …/message/private {company, id, message, email?}: a private message (status unchanged).
 *   POST …/evaluation {company, id}: asks the consumer to evaluate (an unanswered ticket: 422).
 *   Every write moves the ticket's last_modification_date.
 * - Test control (Authorization: Bearer SIMULATOR_API_KEY), under /ra/_sim/companies/{company}:
 *   POST /tickets {title, content, name, email, phone} a new complaint -> {id};
 *   POST /tickets/{id}/reply {message} the consumer's public reply (status: replied);
 *   POST /tickets/{id}/evaluate {rating, resolved, back_doing_business} (status: evaluated);
 *   GET  /answers the company's answers received, in order.
 * State is in memory: a restart seeds the companies again.
 */
import { randomBytes } from "node:crypto";
import { env } from "../lib/env";

const PATH = "/ra";
const TOKEN_TTL_S = 3600;
const DAY = 86_400_000;

type Interaction = { ticket_interaction_id: number; ticket_interaction_type: { id: number; name: string }; privacy: boolean; message: string; creation_date: string };
type Ticket = {
  id: number;
  company: string;
  complaint_title: string;
  complaint_content: string;
  customer: { name: string; email: string[]; phone_numbers: string[] };
  ra_status: { id: number; name: string };
  creation_date: string;
  last_modification_date: string;
  interactions: Interaction[];
  rating: number | null;
  ra: { resolved_issue: boolean | null; back_doing_business: boolean | null };
};
type Answer = { ticket: number; visibility: "public" | "private"; message: string; email: string | null; interaction_id: number; at: string };

const STATUS = {
  unanswered: { id: 5, name: "Não respondida" },
  answered: { id: 6, name: "Respondida" },
  replied: { id: 7, name: "Réplica do consumidor" },
  evaluated: { id: 8, name: "Avaliada" },
};
const TYPE = {
  answer: { id: 1, name: "RESPOSTA_EMPRESA" },
  reply: { id: 2, name: "REPLICA_CONSUMIDOR" },
  companyPrivate: { id: 3, name: "MENSAGEM_PRIVADA_EMPRESA" },
  consumerPrivate: { id: 4, name: "MENSAGEM_PRIVADA_CONSUMIDOR" },
};

const tokens = new Map<string, number>();
const companies = new Map<string, Ticket[]>();
const answers = new Map<string, Answer[]>();
let nextTicket = 100_000;
let nextInteraction = 500_000;
/** Strictly increasing modification times (two writes in one millisecond still order). */
let lastStamp = 0;
const stamp = (at = Date.now()) => {
  lastStamp = Math.max(at, lastStamp + 1);
  return new Date(lastStamp).toISOString();
};

const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status, headers: { "Content-Type": "application/json" } });
const problem = (status: number, code: string, message: string) => json({ error: { code, message } }, status);

function interaction(type: (typeof TYPE)[keyof typeof TYPE], message: string, at: number, privacy = false): Interaction {
  return { ticket_interaction_id: nextInteraction++, ticket_interaction_type: type, privacy, message, creation_date: new Date(at).toISOString() };
}

function newTicket(company: string, t: { title: string; content: string; name: string; email?: string; phone?: string; at?: number }): Ticket {
  const at = t.at ?? Date.now();
  return {
    id: nextTicket++,
    company,
    complaint_title: t.title,
    complaint_content: t.content,
    customer: { name: t.name, email: t.email ? [t.email] : [], phone_numbers: t.phone ? [t.phone] : [] },
    ra_status: STATUS.unanswered,
    creation_date: new Date(at).toISOString(),
    last_modification_date: stamp(at),
    interactions: [],
    rating: null,
    ra: { resolved_issue: null, back_doing_business: null },
  };
}

/** The six complaints a company holds on first use (see the module comment). */
function seed(company: string): Ticket[] {
  const now = Date.now();
  const mk = (n: number, title: string, content: string, name: string, daysAgo: number) =>
    newTicket(company, { title, content, name, email: `consumidor${n}@example.com`, phone: `+55119876500${n}${n}`, at: now - daysAgo * DAY });
  const t1 = mk(1, "Cobrança indevida na fatura", "Fui cobrado duas vezes pelo mesmo plano.", "Ana Souza", 40);
  const t2 = mk(2, "Entrega atrasada", "Meu pedido está atrasado há 15 dias.", "Bruno Lima", 35);
  t2.interactions.push(interaction(TYPE.answer, "Olá Bruno, seu pedido foi reenviado.", now - 34 * DAY));
  t2.ra_status = STATUS.answered;
  const t3 = mk(3, "Produto com defeito", "A tela chegou quebrada.", "Carla Dias", 20);
  t3.interactions.push(interaction(TYPE.answer, "Carla, enviaremos um novo aparelho.", now - 19 * DAY), interaction(TYPE.reply, "Ainda não recebi.", now - 15 * DAY));
  t3.ra_status = STATUS.replied;
  const t4 = mk(4, "Cancelamento não processado", "Pedi o cancelamento e continuo sendo cobrado.", "Diego Alves", 60);
  t4.interactions.push(interaction(TYPE.answer, "Diego, o cancelamento foi feito e o valor estornado.", now - 60 * DAY + 2 * 3_600_000));
  Object.assign(t4, { ra_status: STATUS.evaluated, rating: 9, ra: { resolved_issue: true, back_doing_business: true } });
  const t5 = mk(5, "Atendimento ruim", "Ninguém resolve meu problema.", "Elisa Rocha", 10);
  t5.interactions.push(interaction(TYPE.answer, "Elisa, sentimos muito. Vamos verificar.", now - 8 * DAY));
  Object.assign(t5, { ra_status: STATUS.evaluated, rating: 3, ra: { resolved_issue: false, back_doing_business: false } });
  const t6 = mk(6, "Senha não chega por SMS", "Não recebo o código de acesso.", "Fábio Melo", 2);
  for (const t of [t1, t2, t3, t4, t5, t6]) t.last_modification_date = stamp(Math.max(Date.parse(t.creation_date), ...t.interactions.map((i) => Date.parse(i.creation_date))));
  return [t1, t2, t3, t4, t5, t6];
}

function company(id: string | null): Ticket[] | null {
  if (!id || !/^\d{1,12}$/.test(id)) return null;
  let list = companies.get(id);
  if (!list) {
    list = seed(id);
    companies.set(id, list);
  }
  return list;
}

function bearer(req: Request): boolean {
  const m = /^Bearer\s+(\S+)$/i.exec(req.headers.get("authorization") ?? "");
  const until = m ? tokens.get(m[1]) : undefined;
  return until !== undefined && until > Date.now();
}

function issueToken(req: Request): Response {
  const m = /^Basic\s+(\S+)$/i.exec(req.headers.get("authorization") ?? "");
  const [id, ...rest] = m ? Buffer.from(m[1], "base64").toString().split(":") : [];
  const secret = rest.join(":");
  if (!id || secret.length < 8 || secret === "invalid-secret") return json({ error: "invalid_client", error_description: "Bad client credentials" }, 401);
  const token = randomBytes(24).toString("base64url");
  tokens.set(token, Date.now() + TOKEN_TTL_S * 1000);
  return json({ access_token: token, token_type: "bearer", expires_in: TOKEN_TTL_S });
}

async function body(req: Request): Promise<Record<string, unknown> | null> {
  try {
    const b = await req.json();
    return b && typeof b === "object" ? (b as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

const text = (v: unknown) => (typeof v === "string" && v ? v : undefined);
const publicView = ({ company: _c, ...t }: Ticket) => t;

export async function raPeer(req: Request, pathname: string): Promise<Response | null> {
  if (pathname !== PATH && !pathname.startsWith(`${PATH}/`)) return null;
  const path = pathname.slice(PATH.length);
  const url = new URL(req.url);
  if (path === "/auth/oauth/token" && req.method === "POST") return issueToken(req);

  const sim = /^\/_sim\/companies\/([^/]+)(\/.*)$/.exec(path);
  if (sim) {
    if (req.headers.get("authorization") !== `Bearer ${env().SIMULATOR_API_KEY}`) return problem(401, "unauthorized", "Invalid API key");
    const list = company(sim[1]);
    if (!list) return problem(404, "not_found", "Company not found");
    if (sim[2] === "/answers" && req.method === "GET") return json({ data: answers.get(sim[1]) ?? [] });
    const b = (await body(req)) ?? {};
    if (sim[2] === "/tickets" && req.method === "POST") {
      const t = newTicket(sim[1], {
        title: String(b.title ?? "Reclamação"),
        content: String(b.content ?? ""),
        name: String(b.name ?? "Consumidor"),
        email: text(b.email),
        phone: text(b.phone),
      });
      list.push(t);
      return json({ id: t.id }, 201);
    }
    const one = /^\/tickets\/(\d+)\/(reply|evaluate)$/.exec(sim[2]);
    const t = one ? list.find((x) => x.id === Number(one[1])) : undefined;
    if (!one || !t || req.method !== "POST") return problem(404, "not_found", "No such ticket or endpoint");
    if (one[2] === "reply") {
      t.interactions.push(interaction(TYPE.reply, String(b.message ?? ""), Date.now()));
      t.ra_status = STATUS.replied;
    } else {
      Object.assign(t, {
        ra_status: STATUS.evaluated,
        rating: Number(b.rating ?? 0),
        ra: { resolved_issue: b.resolved === true, back_doing_business: b.back_doing_business === true },
      });
    }
    t.last_modification_date = stamp();
    return json(publicView(t));
  }

  if (!bearer(req)) return problem(401, "unauthorized", "Invalid or expired token");
  if (path === "/ticket/v1/tickets" && req.method === "GET") {
    const list = company(url.searchParams.get("company"));
    if (!list) return problem(404, "not_found", "Company not found");
    const since = url.searchParams.get("last_modification_date[gte]");
    const sinceMs = since ? Date.parse(since) : Number.NEGATIVE_INFINITY;
    if (Number.isNaN(sinceMs)) return problem(400, "bad_request", "last_modification_date[gte] must be ISO 8601");
    const size = Math.min(100, Math.max(1, Number(url.searchParams.get("page[size]") ?? 20) || 20));
    const number = Math.max(1, Number(url.searchParams.get("page[number]") ?? 1) || 1);
    const matching = list
      .filter((t) => Date.parse(t.last_modification_date) >= sinceMs)
      .sort((a, b) => a.last_modification_date.localeCompare(b.last_modification_date) || a.id - b.id);
    const pages = Math.max(1, Math.ceil(matching.length / size));
    return json({ data: matching.slice((number - 1) * size, number * size).map(publicView), meta: { page: { number, size, total_pages: pages }, total: matching.length } });
  }
  const detail = /^\/ticket\/v1\/tickets\/(\d+)$/.exec(path);
  if (detail && req.method === "GET") {
    const t = company(url.searchParams.get("company"))?.find((x) => x.id === Number(detail[1]));
    return t ? json(publicView(t)) : problem(404, "not_found", "Ticket not found");
  }
  const write = /^\/ticket\/v1\/tickets\/(message\/public|message\/private|evaluation)$/.exec(path);
  if (write && req.method === "POST") {
    const b = await body(req);
    const list = company(b ? String(b.company ?? "") : null);
    const t = list?.find((x) => x.id === Number(b?.id));
    if (!b || !t) return problem(404, "not_found", "Ticket not found");
    if (write[1] === "evaluation") {
      if (t.ra_status.id === STATUS.unanswered.id) return problem(422, "unprocessable", "An unanswered ticket cannot be sent to evaluation");
      t.last_modification_date = stamp();
      return json({ success: true }, 201);
    }
    const message = typeof b.message === "string" ? b.message.trim() : "";
    if (!message || message.length > 4000) return problem(422, "unprocessable", "message must have 1 to 4000 characters");
    const isPublic = write[1] === "message/public";
    if (isPublic && t.ra_status.id === STATUS.evaluated.id) return problem(409, "conflict", "The ticket was already evaluated");
    const i = interaction(isPublic ? TYPE.answer : TYPE.companyPrivate, message, Date.now(), !isPublic);
    t.interactions.push(i);
    if (isPublic) t.ra_status = STATUS.answered;
    t.last_modification_date = stamp();
    const log = answers.get(t.company) ?? [];
    log.push({
      ticket: t.id,
      visibility: isPublic ? "public" : "private",
      message,
      email: typeof b.email === "string" ? b.email : null,
      interaction_id: i.ticket_interaction_id,
      at: i.creation_date,
    });
    answers.set(t.company, log);
    return json({ success: true, interaction_id: i.ticket_interaction_id }, 201);
  }
  return problem(404, "not_found", "No such endpoint");
}
