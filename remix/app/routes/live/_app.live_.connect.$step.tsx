/**
 * GET /live/connect/{sync|system|tags|tabs}: the steps of the live connection (spec section 4),
 * read by the browser one after the other before it opens the live socket. Each answers with the
 * same use-case as its JWT API twin (GET webchat/sync, webchat/system, webchat/account-tags,
 * webchat/tabs). Resource route; same permission as the agents' workspace.
 */
import type { LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { accountTags, liveSync } from "~api/live/desk";
import { liveSystem } from "~api/live/settings";
import { agentTabulations } from "~api/live/tabulations";
import type { SignedInCtx } from "~api/lib/context";
import { orHttpError, requireRoute } from "~/lib/auth.server";

const STEPS: Record<string, (ctx: SignedInCtx) => Promise<unknown>> = {
  sync: liveSync,
  system: liveSystem,
  tags: async (ctx) => ({ data: await accountTags(ctx) }),
  tabs: async (ctx) => ({ data: await agentTabulations(ctx) }),
};

export async function loader({ request, params }: LoaderFunctionArgs) {
  const step = STEPS[params.step ?? ""];
  if (!step) throw new Response("Not Found", { status: 404 });
  const ctx = await requireRoute(request, "/live");
  return json(await orHttpError(step(ctx)), { headers: { "Cache-Control": "no-store" } });
}
