/**
 * RCS report fixtures (issue 21): agents and a day of RCS history written straight into the
 * database (a message's later statuses — delivered, read, failed — come from Google's callbacks,
 * which the reports only read). Used by tests/integration/rcs-reports*.test.ts.
 */
import { makeMessage, makeRcsAgent, mobileNumber, type MessageFields, type MessageStatus } from "./factories";

/** A launched agent of the account named `name` (factories makeRcsAgent): its id and Google id (the messages' sender). */
async function agentOf(accountId: string, name: string): Promise<{ id: string; rbm: string }> {
  const a = await makeRcsAgent(accountId, { name });
  return { id: a.id, rbm: a.rbmAgentId as string };
}

export type RcsSeed = {
  agent: string;
  type: NonNullable<MessageFields["type"]>;
  content: Record<string, unknown>;
  status: MessageStatus;
  price: number;
  /** Handed to Google. */
  sent?: boolean;
  inbound?: boolean;
};

/** One RCS message of the account at `createdAt` (outbound from the agent's Google id, or inbound to it). */
export async function makeRcsMessage(accountId: string, s: RcsSeed, createdAt: string, recipient = mobileNumber()): Promise<string> {
  const body = String(s.content.messageText ?? s.content.type ?? "");
  return makeMessage(accountId, {
    channel: "rcs",
    direction: s.inbound ? "inbound" : "outbound",
    sender: s.inbound ? recipient : s.agent,
    recipient: s.inbound ? s.agent : recipient,
    type: s.type,
    content: s.content,
    body,
    status: s.status,
    price: s.price,
    currency: "BRL",
    // api/rcs/send.ts RCS_PROVIDER
    provider: "rbm",
    createdAt,
    sentAt: s.sent ? createdAt : null,
  });
}

/** The SMS a handset that is not RCS-capable got instead of `rcsId`. */
export function makeFallbackLeg(accountId: string, rcsId: string, recipient: string, createdAt: string, price = 8): Promise<string> {
  return makeMessage(accountId, {
    channel: "sms",
    sender: "RCS",
    recipient,
    body: "fallback",
    status: "delivered",
    price,
    currency: "BRL",
    fallbackOf: rcsId,
    createdAt,
    sentAt: createdAt,
  });
}

export const text = (messageText: string, suggestions?: unknown[]) => ({ type: "text", messageText, ...(suggestions ? { suggestions } : {}) });
export const card = { type: "card", messageText: "Oferta", imageUrl: "https://example.com/a.png" };
export const carousel = {
  type: "card-carousel",
  images: [
    { uri: "https://example.com/a.png", title: "A" },
    { uri: "https://example.com/b.png", title: "B" },
  ],
};
export const link = { type: "link", messageText: "Veja", suggestions: [{ type: "url", text: "Abrir", url: "https://example.com" }] };

export type RcsHistorySeed = {
  agents: Record<"a1" | "a2" | "b1", { id: string; rbm: string }>;
  /** A's messages in order: 0 text basic read, 1 long text delivered, 2 card failed unsent, 3 carousel sent, 4 link queued, 5 inbound. */
  ids: string[];
  idB: string;
  legId: string;
  recipient: string;
};

/**
 * One São Paulo day of RCS history (10:00 onwards) for two accounts. A: agents "Loja Um" (a1) and
 * "Loja Dois" (a2), five outbound messages — 78 charged, 1 basic and 4 rich, statuses read,
 * delivered, failed (before Google took it: refunded), sent, queued — one inbound, and the SMS leg
 * (8) that stood in for the failed card. B: agent "Outra" and one delivered basic text (6).
 */
export async function seedRcsHistory(accountA: string, accountB: string, day: string): Promise<RcsHistorySeed> {
  const at = (minute: number) => `${day}T10:${String(minute).padStart(2, "0")}:00-03:00`;
  const recipient = mobileNumber();
  const agents = {
    a1: await agentOf(accountA, "Loja Um"),
    a2: await agentOf(accountA, "Loja Dois"),
    b1: await agentOf(accountB, "Outra"),
  };
  const ids: string[] = [];
  ids.push(await makeRcsMessage(accountA, { agent: agents.a1.rbm, type: "text", content: text("Oi!"), status: "read", price: 6, sent: true }, at(0), recipient));
  ids.push(await makeRcsMessage(accountA, { agent: agents.a1.rbm, type: "text", content: text("x".repeat(200)), status: "delivered", price: 18, sent: true }, at(1)));
  ids.push(await makeRcsMessage(accountA, { agent: agents.a1.rbm, type: "card", content: card, status: "failed", price: 18 }, at(2), recipient));
  ids.push(await makeRcsMessage(accountA, { agent: agents.a2.rbm, type: "card-carousel", content: carousel, status: "sent", price: 18, sent: true }, at(3)));
  ids.push(await makeRcsMessage(accountA, { agent: agents.a2.rbm, type: "link", content: link, status: "queued", price: 18 }, at(4)));
  ids.push(await makeRcsMessage(accountA, { agent: agents.a1.rbm, type: "text", content: text("Quero"), status: "received", price: 0, inbound: true }, at(5), recipient));
  const legId = await makeFallbackLeg(accountA, ids[2] as string, recipient, at(6));
  const idB = await makeRcsMessage(accountB, { agent: agents.b1.rbm, type: "text", content: text("Oi B"), status: "delivered", price: 6, sent: true }, at(0));
  return { agents, ids, idB, legId, recipient };
}
