/**
 * The registrant's mailbox (issue 19): outside production, a visitor who is not signed in but whose
 * browser just registered an address (the session's `registeredEmail`, set by registerAction) opens
 * /dev/mailbox and its e-mails there — only those addressed to that address — to follow the
 * verification link: nobody signs in before verifying. /dev/mailbox/email (what the SMTP peer
 * received of an account's e-mail) stays for the signed-in. Everyone else is guarded as before.
 */
import { env } from "~api/lib/env";
import { getSession } from "./session.server";

/** /dev/mailbox and /dev/mailbox/{id}, not /dev/mailbox/email. */
const REGISTRANT_PATH = /^\/dev\/mailbox(?:\/(?!email\/?$)[^/]+)?\/?$/;

const cache = new WeakMap<Request, Promise<string | null>>();

/** The address this request's visitor registered, when it may see the mailbox as a registrant; null otherwise. */
export function mailboxRegistrant(request: Request): Promise<string | null> {
  let p = cache.get(request);
  if (!p) {
    p = resolveRegistrant(request);
    cache.set(request, p);
  }
  return p;
}

async function resolveRegistrant(request: Request): Promise<string | null> {
  if (env().NODE_ENV === "production") return null;
  if (!REGISTRANT_PATH.test(new URL(request.url).pathname)) return null;
  const session = await getSession(request);
  if (session.get("userId")) return null;
  return session.get("registeredEmail") ?? null;
}
