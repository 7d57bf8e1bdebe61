/**
 * Authorisation after connect (ADR 015 amendment): every agent connection and notification
 * stream of this process is held here with who opened it. A revocation event
 * (api/auth/revocation.ts: logout, password or 2FA change, removal, role change, suspension)
 * closes the matching ones at once; because pub/sub loses messages while Redis is away, each
 * one is also re-checked every REALTIME_REVALIDATE_SECONDS (membership, role, account status,
 * web session, token) and closed when no longer allowed.
 */
import { connectionStillAllowed, revocationChannel, revocationMatches, type ConnectionSubject, type Revocation } from "../api/auth/revocation";
import { env } from "../api/lib/env";
import { connect } from "../api/lib/redis";
import type { Identity } from "./connection";

type Held = { subject: ConnectionSubject; end: (reason: string) => void };
const held = new Set<Held>();

/** Hold an agent's connection as revocable; the returned function lets go of it (when it closes). */
export function holdRevocable(identity: Extract<Identity, { kind: "agent" }>, end: (reason: string) => void): () => void {
  const { actor, sessionId, tokenIssuedAt } = identity;
  const subject: ConnectionSubject = { userId: actor.userId, accountId: actor.accountId, role: actor.role, isAgent: actor.isAgent, sessionId, tokenIssuedAt };
  const h: Held = { subject, end };
  held.add(h);
  return () => held.delete(h);
}

export function applyRevocation(r: Revocation) {
  for (const h of [...held]) if (revocationMatches(r, h.subject)) h.end(r.reason);
}

let checking = false;
async function revalidate() {
  if (checking) return;
  checking = true;
  try {
    for (const h of [...held]) {
      if (held.has(h) && !(await connectionStillAllowed(h.subject))) h.end("revoked");
    }
  } finally {
    checking = false;
  }
}

/** Subscribe to the revocation channel and start the periodic re-check (once per process). */
export function listenForRevocations() {
  const sub = connect();
  sub.subscribe(revocationChannel()).catch((err) => console.error("realtime revocation channel", err));
  sub.on("message", (_channel, raw) => {
    try {
      applyRevocation(JSON.parse(raw) as Revocation);
    } catch {}
  });
  setInterval(() => void revalidate().catch((err) => console.error("realtime revalidation", err)), env().REALTIME_REVALIDATE_SECONDS * 1000);
}
