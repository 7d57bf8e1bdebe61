import { register } from "~api/auth/register";
import { latestOutboxEmailTo } from "~api/mail/outbox";
import { Whitelabel } from "../../../models";
import { registerSchema } from "~api/auth/schemas";
import { requestCtx } from "./auth.server";
import { handleForm } from "./forms.server";
import { redirect } from "@remix-run/node";
import { env } from "~api/lib/env";
import { commitSession, getSession } from "./session.server";

/** Shared action of /register and /experience: accounts created on a reseller's host belong to its whitelabel. */
export function registerAction(request: Request, trial: boolean) {
  return handleForm(request, registerSchema, async (value) => {
    const host = (request.headers.get("Host") ?? "").split(":")[0].toLowerCase();
    const wl = host ? await Whitelabel.findOne({ where: { host } }) : null;
    await register(requestCtx(request), value, { trial, whitelabelId: wl?.id ?? null });
    if (env().NODE_ENV === "production") return redirect(trial ? "/obrigado" : "/success");
    // Outside production the next page shows this browser its own verification e-mail (issue 19).
    const session = await getSession(request);
    session.set("registeredEmail", value.email);
    return redirect(trial ? "/obrigado" : "/success", { headers: { "Set-Cookie": await commitSession(session) } });
  });
}

/** Outside production: the verification e-mail this browser's registration wrote (null otherwise). */
export async function registeredMail(request: Request) {
  if (env().NODE_ENV === "production") return null;
  const email = (await getSession(request)).get("registeredEmail");
  return email ? latestOutboxEmailTo(email) : null;
}
