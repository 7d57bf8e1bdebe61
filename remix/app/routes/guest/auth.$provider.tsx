/** POST /auth/google | /auth/facebook: start the provider's sign-in (redirects to it). */
import type { ActionFunctionArgs } from "@remix-run/node";
import { requireCsrf } from "~/lib/csrf.server";
import { authenticator, oauthEnabled } from "~/lib/authenticator.server";

export async function action({ request, params }: ActionFunctionArgs) {
  const provider = params.provider;
  if ((provider !== "google" && provider !== "facebook") || !oauthEnabled(provider)) throw new Response("Not Found", { status: 404 });
  await requireCsrf(request, await request.clone().formData()).catch(() => {
    throw new Response("Forbidden", { status: 403 });
  });
  // The strategy answers by throwing the redirect to the provider (with its state cookie).
  return authenticator().authenticate(provider, request);
}

export async function loader() {
  throw new Response("Not Found", { status: 404 });
}
