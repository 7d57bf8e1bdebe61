import { register } from "~api/auth/register";
import { Whitelabel } from "../../../models";
import { registerSchema } from "~api/auth/schemas";
import { requestCtx } from "./auth.server";
import { handleForm } from "./forms.server";
import { redirect } from "@remix-run/node";

/** Shared action of /register and /experience: accounts created on a reseller's host belong to its whitelabel. */
export function registerAction(request: Request, trial: boolean) {
  return handleForm(request, registerSchema, async (value) => {
    const host = (request.headers.get("Host") ?? "").split(":")[0].toLowerCase();
    const wl = host ? await Whitelabel.findOne({ where: { host } }) : null;
    await register(requestCtx(request), value, { trial, whitelabelId: wl?.id ?? null });
    return redirect(trial ? "/obrigado" : "/success");
  });
}
