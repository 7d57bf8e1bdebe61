/** GET /callback/google | /callback/facebook: the provider sends the person back here. */
import type { LoaderFunctionArgs } from "@remix-run/node";
import { isAppError } from "~api/lib/errors";
import { authenticator, oauthEnabled } from "~/lib/authenticator.server";
import { startSession } from "~/lib/login.server";
import { redirectWithToast } from "~/lib/toast.server";

export async function loader({ request, params }: LoaderFunctionArgs) {
  const provider = params.provider;
  if ((provider !== "google" && provider !== "facebook") || !oauthEnabled(provider)) throw new Response("Not Found", { status: 404 });
  try {
    const { user, twoFactorRequired } = await authenticator().authenticate(provider, request);
    return startSession(request, user, { twoFactorRequired });
  } catch (e) {
    if (e instanceof Response) throw e;
    if (!isAppError(e)) console.error(`${provider} sign-in failed`, e);
    return redirectWithToast(request, "/login", {
      type: "error",
      title: isAppError(e) ? `errors:${e.code}` : "auth:oauth.failed",
      params: { provider: provider === "google" ? "Google" : "Facebook" },
    });
  }
}
