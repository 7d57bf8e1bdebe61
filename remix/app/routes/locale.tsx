/** POST /locale: save the language (on the person when signed in, always in the lng cookie). */
import type { ActionFunctionArgs } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { setLocale } from "~api/users/services";
import { requireCsrf } from "~/lib/csrf.server";
import { localeCookie } from "~/lib/i18n.server";
import { optionalUserId } from "~/lib/auth.server";
import { supportedLngs } from "~/lib/i18n";
import { safeRedirectPath } from "~/lib/safe-redirect";

/** Back to the form's redirectTo, else the page the form was on (Referer), else "/": our origin only. */
function backTo(request: Request, redirectTo: FormDataEntryValue | null) {
  const origin = new URL(request.url).origin;
  const referer = URL.canParse(request.headers.get("Referer") ?? "") ? new URL(request.headers.get("Referer")!) : null;
  const fromReferer = referer ? safeRedirectPath(referer.pathname + referer.search, origin) : "/";
  return safeRedirectPath(redirectTo, origin, fromReferer);
}

export async function action({ request }: ActionFunctionArgs) {
  const form = await request.formData();
  await requireCsrf(request, form).catch(() => {
    throw new Response("Forbidden", { status: 403 });
  });
  const locale = String(form.get("locale") ?? "");
  if (!(supportedLngs as readonly string[]).includes(locale)) throw new Response("Bad Request", { status: 400 });
  const userId = await optionalUserId(request);
  if (userId) await setLocale(userId, { locale });
  return redirect(backTo(request, form.get("redirectTo")), { headers: { "Set-Cookie": await localeCookie.serialize(locale) } });
}

export async function loader() {
  return redirect("/");
}
