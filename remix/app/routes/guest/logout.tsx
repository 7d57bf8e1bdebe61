import type { ActionFunctionArgs } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { recordAudit } from "~api/audit/record";
import { revokeSessionConnections } from "~api/auth/revocation";
import { requireCsrf } from "~/lib/csrf.server";
import { requestCtx } from "~/lib/auth.server";
import { commitSession, destroySession, getSession, sessionStorage } from "~/lib/session.server";

export async function action({ request }: ActionFunctionArgs) {
  const form = await request.formData();
  await requireCsrf(request, form).catch(() => {
    throw new Response("Forbidden", { status: 403 });
  });
  const session = await getSession(request);
  const userId = session.get("userId");
  if (userId) await recordAudit(requestCtx(request), "auth.logout", { userId, accountId: session.get("accountId") ?? null });
  await destroySession(session);
  // The streams this session opened close too (their tickets named it).
  if (userId && session.id) await revokeSessionConnections(session.id);
  const fresh = await sessionStorage.getSession();
  fresh.flash("toast", { type: "info", title: "auth:logout.done" });
  return redirect("/login", { headers: { "Set-Cookie": await commitSession(fresh) } });
}

export async function loader() {
  return redirect("/");
}
