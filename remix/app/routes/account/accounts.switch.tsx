/** POST /accounts/switch: make another of the person's accounts the current one. */
import type { ActionFunctionArgs } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { switchAccount } from "~api/accounts/services";
import { requireCsrf } from "~/lib/csrf.server";
import { orHttpError, requireActor, requestCtx } from "~/lib/auth.server";
import { commitSession, getSession } from "~/lib/session.server";

export async function action({ request }: ActionFunctionArgs) {
  const form = await request.formData();
  await requireCsrf(request, form).catch(() => {
    throw new Response("Forbidden", { status: 403 });
  });
  const actor = await requireActor(request);
  const next = await orHttpError(switchAccount({ ...requestCtx(request), actor }, String(form.get("accountId") ?? "")));
  const session = await getSession(request);
  session.set("accountId", next.accountId);
  return redirect("/", { headers: { "Set-Cookie": await commitSession(session) } });
}

export async function loader() {
  return redirect("/accounts");
}
