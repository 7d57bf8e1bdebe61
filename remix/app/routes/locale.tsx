/** POST /locale: save the language (on the person when signed in, always in the lng cookie). */
import type { ActionFunctionArgs } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { setLocale } from "../../../api/users/services";
import { requireCsrf } from "~/lib/csrf.server";
import { localeCookie } from "~/lib/i18n.server";
import { optionalUserId } from "~/lib/auth.server";
import { supportedLngs } from "~/lib/i18n";

function safeRedirect(to: FormDataEntryValue | null, fallback: string) {
  return typeof to === "string" && to.startsWith("/") && !to.startsWith("//") ? to : fallback;
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
  const back = safeRedirect(form.get("redirectTo"), request.headers.get("Referer") ? new URL(request.headers.get("Referer")!).pathname : "/");
  return redirect(back, { headers: { "Set-Cookie": await localeCookie.serialize(locale) } });
}

export async function loader() {
  return redirect("/");
}
