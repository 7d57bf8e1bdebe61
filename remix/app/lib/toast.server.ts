import { redirect } from "@remix-run/node";
import { commitSession, getSession } from "./session.server";
import type { ToastInput } from "./toast";

/** Post-redirect-get with a toast: a refresh never re-posts, and the toast shows even without JavaScript. */
export async function redirectWithToast(request: Request, to: string, toast: ToastInput, init: { headers?: HeadersInit } = {}) {
  const session = await getSession(request);
  session.flash("toast", toast);
  const headers = new Headers(init.headers);
  headers.append("Set-Cookie", await commitSession(session));
  return redirect(to, { headers });
}
