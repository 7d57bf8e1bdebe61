/**
 * Cookie sessions whose data lives in Redis: the cookie holds only a signed random id, so a
 * session can be rotated (login, 2FA) and revoked (logout) for real.
 */
import { createCookie, createSessionStorage, type Session } from "@remix-run/node";
import { env } from "../../../api/lib/env";
import { randomToken } from "../../../api/lib/crypto";
import { key, redis } from "../../../api/lib/redis";
import { SESSION_COOKIE } from "./csrf.server";
import type { ToastInput } from "./toast";

export type SessionData = {
  userId?: string;
  accountId?: string;
  /** "pending" between password and TOTP code. */
  tfa?: "pending" | "ok";
  totpEnrolment?: string;
  oauthState?: string;
  redirectTo?: string;
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

const dataKey = (id: string) => key("session", id);

export const sessionStorage = createSessionStorage<SessionData, SessionFlash>({
  cookie: sessionCookie,
  async createData(data) {
    const id = randomToken(24);
    await redis().set(dataKey(id), JSON.stringify(data), "EX", MAX_AGE);
    return id;
  },
  async readData(id) {
    const raw = await redis().get(dataKey(id));
    return raw ? JSON.parse(raw) : null;
  },
  async updateData(id, data) {
    await redis().set(dataKey(id), JSON.stringify(data), "EX", MAX_AGE);
  },
  async deleteData(id) {
    await redis().del(dataKey(id));
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
