/**
 * GET /notifications/ticket: a short-lived ticket for the realtime notification stream (an
 * EventSource cannot send the session cookie's identity to another process). Resource route.
 */
import type { LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { issueStreamTicket } from "~api/realtime/tickets";
import { requireRoute } from "~/lib/auth.server";

export async function loader({ request }: LoaderFunctionArgs) {
  // Same permission as the notifications screen itself.
  const ctx = await requireRoute(request, "/notifications");
  return json({ ticket: await issueStreamTicket(ctx.actor, ctx.sessionId) }, { headers: { "Cache-Control": "no-store" } });
}
