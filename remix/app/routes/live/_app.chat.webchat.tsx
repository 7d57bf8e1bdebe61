/**
 * /chat/webchat: the spec's entry point to the webchat widget's configuration (its look, texts and the snippet to install), which lives at /widget/config. Checked against
 * the policy like any screen (a person who may not open it gets /403), then a 302 there, so a
 * bookmark or a link of the spec's route lands on the one real screen.
 */
import { type LoaderFunctionArgs, redirect } from "@remix-run/node";
import { requireRoute } from "~/lib/auth.server";

export async function loader({ request }: LoaderFunctionArgs) {
  await requireRoute(request);
  return redirect("/widget/config");
}
