/**
 * What the simulator's local SMTP peer received of the account's e-mail (issue 17: "/dev/mailbox
 * shows what it received — rendered HTML, headers, DKIM result"). Read from the peer's inspection
 * API (api/simulator/smtp-peer.ts, /email/_sim/messages, the simulator's key) and scoped here: a
 * received message is the account's when its Message-ID names one of the account's messages
 * (platform staff see all). Never in production (the peer does not run there).
 */
import { simpleParser } from "mailparser";
import type { SignedInCtx } from "../lib/context";
import { env } from "../lib/env";
import { AppError } from "../lib/errors";
import { rows } from "../lib/sql";
import { messageOfMessageIdHeader } from "./return-path";

type PeerEntry = {
  id: string;
  received_at: string;
  mail_from: string;
  rcpt_to: string[];
  headers: { subject?: string | null; from?: string | null; to?: string | null; message_id?: string | null };
  size: number;
  dkim: { result: string; domain?: string | null; selector?: string | null; info?: string | null };
};
export type PeerMail = { id: string; message_id: string | null; received_at: string; to: string[]; from: string; subject: string; size: number; dkim: PeerEntry["dkim"] };
export type PeerMailDetail = PeerMail & { mail_from: string; headers: Array<[string, string]>; html: string | null; text: string | null };

function available() {
  if (env().NODE_ENV === "production" || !env().SIMULATOR_URL || !env().SIMULATOR_API_KEY) throw new AppError("NOT_FOUND");
}

async function peer<T>(path: string): Promise<T | null> {
  const res = await fetch(new URL(path, env().SIMULATOR_URL), { headers: { Authorization: `Bearer ${env().SIMULATOR_API_KEY}` }, signal: AbortSignal.timeout(5000) });
  if (res.status === 404) return null;
  if (!res.ok) throw new AppError("INTERNAL");
  return ((await res.json()) as { data: T }).data;
}

/** Of `entries`, the ones the actor may see, each with the message id its Message-ID names. */
async function visible(ctx: SignedInCtx, entries: PeerEntry[]): Promise<Array<PeerEntry & { messageId: string | null }>> {
  const named = entries.map((e) => ({ ...e, messageId: messageOfMessageIdHeader(e.headers.message_id ?? null) }));
  if (ctx.actor.accountType === "platform") return named;
  const ids = [...new Set(named.flatMap((e) => (e.messageId ? [e.messageId] : [])))];
  const own = new Set(
    ids.length
      ? (await rows<{ id: string }>(`SELECT id FROM messages WHERE id = ANY($1::uuid[]) AND account_id = $2 AND channel = 'email'`, [ids, ctx.actor.accountId])).map((r) => r.id)
      : [],
  );
  return named.filter((e) => e.messageId && own.has(e.messageId));
}

const view = (e: PeerEntry & { messageId: string | null }): PeerMail => ({
  id: e.id,
  message_id: e.messageId,
  received_at: e.received_at,
  to: e.rcpt_to,
  from: e.headers.from ?? "",
  subject: e.headers.subject ?? "",
  size: e.size,
  dkim: e.dkim,
});

/** The latest messages the peer received (its last 1,000 kept), the actor's only, newest first. */
export async function listPeerMail(ctx: SignedInCtx, limit = 100): Promise<PeerMail[]> {
  available();
  const entries = (await peer<PeerEntry[]>(`/email/_sim/messages?limit=1000`)) ?? [];
  return (await visible(ctx, entries)).slice(0, limit).map(view);
}

/** One received message: its headers in order, its HTML and text parts (parsed from the raw message), its DKIM verdict. */
export async function getPeerMail(ctx: SignedInCtx, id: string): Promise<PeerMailDetail> {
  available();
  if (!/^[A-Za-z0-9_.-]{1,80}$/.test(id)) throw new AppError("NOT_FOUND");
  const entry = await peer<PeerEntry & { raw: string | null }>(`/email/_sim/messages/${encodeURIComponent(id)}`);
  if (!entry) throw new AppError("NOT_FOUND");
  const [mine] = await visible(ctx, [entry]);
  if (!mine) throw new AppError("NOT_FOUND");
  const parsed = entry.raw ? await simpleParser(entry.raw) : null;
  const headers: Array<[string, string]> = (parsed?.headerLines ?? []).map((h) => {
    const i = h.line.indexOf(":");
    return [
      h.line.slice(0, i),
      h.line
        .slice(i + 1)
        .replace(/\r?\n[ \t]+/g, " ")
        .trim(),
    ];
  });
  return {
    ...view(mine),
    mail_from: entry.mail_from,
    headers,
    html: typeof parsed?.html === "string" ? parsed.html : null,
    text: parsed?.text ?? null,
  };
}
