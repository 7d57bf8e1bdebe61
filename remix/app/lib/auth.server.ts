/**
 * Guards that read like sentences. They implement the navigation guard of spec section 2:
 * no session -> /login; second factor owed -> /2fa; account failure -> logout, toast, /login;
 * permission failure -> /403.
 */
import { createCookie, redirect } from "@remix-run/node";
import { loadActor } from "~api/auth/actor";
import type { Actor, Ctx, SignedInCtx } from "~api/lib/context";
import { AppError, isAppError } from "~api/lib/errors";
import { decide, routeKind } from "~api/policy/policy";
import { mailboxRegistrant } from "./registrant.server";
import { commitSession, destroySession, getSession, sessionStorage } from "./session.server";

export function requestCtx(request: Request): Ctx {
  return {
    // X-Real-IP is set by remix/web-server.ts from the socket (a client cannot forge it).
    ip: request.headers.get("X-Real-IP") || null,
    userAgent: request.headers.get("User-Agent"),
  };
}

function loginRedirect(request: Request) {
  const url = new URL(request.url);
  const back = url.pathname + url.search;
  return redirect(back && back !== "/" ? `/login?redirectTo=${encodeURIComponent(back)}` : "/login");
}

const cache = new WeakMap<Request, Promise<Actor>>();
const sessionIds = new WeakMap<Request, string>();

/** The signed-in actor of this request, or a redirect thrown per the navigation guard. */
export function requireActor(request: Request): Promise<Actor> {
  let p = cache.get(request);
  if (!p) {
    p = resolveActor(request);
    cache.set(request, p);
  }
  return p;
}

async function resolveActor(request: Request): Promise<Actor> {
  const session = await getSession(request);
  const userId = session.get("userId");
  if (!userId) throw loginRedirect(request);
  sessionIds.set(request, session.id);
  if (session.get("tfa") === "pending") throw redirect("/2fa");
  try {
    // An account suspended for an unpaid invoice still signs in, to pay it (ADR 044): the policy keeps it to its billing screens.
    return await loadActor(userId, session.get("accountId"), { billing: true });
  } catch (e) {
    if (isAppError(e) && e.code === "UNAUTHENTICATED") {
      throw redirect("/login", { headers: { "Set-Cookie": await destroySession(session) } });
    }
    // Account-info failure: log out, say so, go to /login.
    await destroySession(session);
    const fresh = await sessionStorage.getSession();
    fresh.flash("toast", { type: "error", title: isAppError(e) && e.code === "CLIENT_INACTIVE" ? inactiveKey(e.params?.context) : "errors:ACCOUNT_INFO_FAILED" });
    throw redirect("/login", { headers: { "Set-Cookie": await commitSession(fresh) } });
  }
}

/** The toast of a refused account, naming a suspension (by staff, or for an unpaid invoice) when it is one. */
const inactiveKey = (context: unknown) => (context === "suspended" || context === "unpaid" ? `errors:CLIENT_INACTIVE_${context}` : "errors:CLIENT_INACTIVE");

/** The path the last refusal came from, for /403 (a minute, only sent to /403). */
export const forbiddenFrom = createCookie("forbidden_from", { path: "/403", sameSite: "lax", httpOnly: true, maxAge: 60 });

/** requireActor + the permission policy for this request's path (or a given one). */
export async function requireRoute(request: Request, path = new URL(request.url).pathname): Promise<SignedInCtx> {
  const actor = await requireActor(request);
  const decision = decide(actor, path);
  // Suspended for an unpaid invoice: its invoices, where the screen says why and how to pay.
  if (decision.allowed === false && decision.reason === "suspended") throw redirect("/invoices");
  // A refusal says why on /403: the refused path travels in a short cookie read by /403, which names what the plan lacks (issue 19).
  if (!decision.allowed) throw redirect("/403", { headers: { "Set-Cookie": await forbiddenFrom.serialize(path) } });
  return { ...requestCtx(request), actor, sessionId: sessionIds.get(request) };
}

/** Who is signed in, if anyone (guest pages use it to show "go to the app"). */
export async function optionalUserId(request: Request) {
  const session = await getSession(request);
  return session.get("tfa") === "pending" ? undefined : session.get("userId");
}

/** Root guard for every path, so unknown paths and unbuilt areas obey the same policy. */
export async function guard(request: Request): Promise<Actor | null> {
  const path = new URL(request.url).pathname;
  const kind = routeKind(path.length > 1 ? path.replace(/\/+$/, "") : path);
  if (kind === "guest" || kind === "public") {
    const userId = await optionalUserId(request);
    if (!userId) return null;
    return requireActor(request).catch(() => null);
  }
  if (kind === "tfa") {
    const session = await getSession(request);
    if (!session.get("userId")) throw loginRedirect(request);
    return null;
  }
  // Outside production, the registrant's own mailbox (not signed in; its routes show only its e-mails).
  if (await mailboxRegistrant(request)) return null;
  await requireRoute(request, path);
  return requireActor(request);
}

export { AppError };

/** Map a use-case's AppError to an HTTP error response (for loaders/actions without a form to show it). */
export async function orHttpError<T>(p: Promise<T>): Promise<T> {
  try {
    return await p;
  } catch (e) {
    if (isAppError(e)) throw new Response(e.code, { status: e.status });
    throw e;
  }
}
