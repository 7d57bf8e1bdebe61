/**
 * The SMPP server's bound sessions kept in step with their users (api/smpp/server.ts's receipt
 * pump, every pass): a user disabled or deleted is unbound; the others get their fresh settings.
 *
 * Only the sessions bound when the pass began are judged. A session that binds while the users
 * are being read is not among the rows read, and is not "missing": it was unbound at once when the
 * pass judged every session bound by the time the read returned (an ESME that bound during a
 * slow read lost its connection silently, and the receipts owed to it waited).
 */
export type BoundUser = { id: string; enabled: boolean };

export async function refreshBound<B extends { user: U }, U extends BoundUser>(bound: Set<B>, read: (ids: string[]) => Promise<U[]>, unbind: (b: B) => void): Promise<void> {
  const sessions = [...bound];
  const ids = [...new Set(sessions.map((b) => b.user.id))];
  if (ids.length === 0) return;
  const byId = new Map((await read(ids)).map((u) => [u.id, u]));
  for (const b of sessions) {
    // Gone while the users were read (closed, unbound): nothing to judge.
    if (!bound.has(b)) continue;
    const u = byId.get(b.user.id);
    if (!u?.enabled) {
      bound.delete(b);
      unbind(b);
    } else b.user = u;
  }
}
