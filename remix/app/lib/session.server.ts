/**
 * Cookie sessions whose data lives in Redis: the cookie holds only a signed random id, so a
 * session can be rotated (login, 2FA) and revoked (logout) for real.
 */
import { createCookie, createSessionStorage, type Session } from "@remix-run/node";
import { env } from "~api/lib/env";
import { randomToken } from "~api/lib/crypto";
import { redis } from "~api/lib/redis";
import { SESSION_COOKIE } from "./csrf.server";
import { sessionKey, userSessionsKey } from "~api/auth/revocation";
import type { ToastInput } from "./toast";

export type SessionData = {
  userId?: string;
  accountId?: string;
  /** "pending" between password and TOTP code. */
  tfa?: "pending" | "ok";
  totpEnrolment?: string;
  oauthState?: string;
  redirectTo?: string;
  /** Outside production: the address this browser just registered, whose verification e-mail /success shows. */
  registeredEmail?: string;
};
export type SessionFlash = { toast: ToastInput };
export type AppSession = Session<SessionData, SessionFlash>;

const MAX_AGE = 60 * 60 * 24 * 14;

const sessionCookie = createCookie(SESSION_COOKIE, {
  httpOnly: true,
  sameSite: "lax",
  path: "/",
  secure: env().NODE_ENV === "production",
  secrets: [env().SESSION_SECRET],
  maxAge: MAX_AGE,
});

/**
 * Each signed-in session's id is also in its person's set (api/auth/revocation.ts), so a password
 * change or a removal can end all of them. The set lives as long as its newest session; ids of
 * sessions that expired on their own stay in it until then (deleting them again is harmless).
 */
async function writeData(id: string, data: Partial<SessionData>, mode?: "XX") {
  const value = JSON.stringify(data);
  // The person's index first, then the data (they live in different slots on a cluster): a crash
  // in between leaves an id in the index whose session does not exist, never a session no
  // revocation can find.
  if (data.userId) await redis().multi().sadd(userSessionsKey(data.userId), id).expire(userSessionsKey(data.userId), MAX_AGE).exec();
  if (mode) await redis().set(sessionKey(id), value, "EX", MAX_AGE, mode);
  else await redis().set(sessionKey(id), value, "EX", MAX_AGE);
}

export const sessionStorage = createSessionStorage<SessionData, SessionFlash>({
  cookie: sessionCookie,
  async createData(data) {
    const id = randomToken(24);
    await writeData(id, data);
    return id;
  },
  async readData(id) {
    const raw = await redis().get(sessionKey(id));
    return raw ? JSON.parse(raw) : null;
  },
  async updateData(id, data) {
    // A signed-in session is only ever updated, never recreated: a request still in flight when
    // its session was revoked must not bring it back (login and 2FA start fresh ids: rotateSession).
    await writeData(id, data, data.userId ? "XX" : undefined);
  },
  async deleteData(id) {
    const raw = await redis().get(sessionKey(id));
    const userId = raw ? (JSON.parse(raw) as SessionData).userId : undefined;
    await redis().del(sessionKey(id));
    if (userId) await redis().srem(userSessionsKey(userId), id);
  },
});

export function getSession(request: Request) {
  return sessionStorage.getSession(request.headers.get("Cookie"));
}

export const commitSession = (s: AppSession) => sessionStorage.commitSession(s);
export const destroySession = (s: AppSession) => sessionStorage.destroySession(s);

/** A new session id carrying `data` (old one destroyed): used at login and after 2FA. */
export async function rotateSession(old: AppSession, data: SessionData) {
  await sessionStorage.destroySession(old);
  const fresh = await sessionStorage.getSession();
  for (const [k, v] of Object.entries(data)) if (v !== undefined) fresh.set(k as keyof SessionData, v as never);
  return fresh;
}
