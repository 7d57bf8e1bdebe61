/** Whitelabel API: public branding for the host, and the reseller's own branding. */
import { Elysia, t } from "elysia";
import { authenticated, clientHost } from "../http/auth";
import { successResponse } from "../http/openapi";
import { onePage } from "../lib/page";
import * as R from "./responses";
import { brandForHost, getWhitelabel, saveWhitelabel } from "./services";

function view(w: { id: string; name: string; color: string; host: string; accountId?: string | null }) {
  return { id: w.id, name: w.name, color: w.color, host: w.host, account_id: w.accountId ?? null };
}

/** Public: the login page of a reseller asks which brand its host wears (null when none). */
export const brandRoutes = new Elysia({ prefix: "/whitelabel", tags: ["whitelabel"] }).get(
  "/current",
  async ({ request, server }) => ({ brand: await brandForHost(clientHost(request, server?.requestIP(request)?.address)) }),
  { detail: { responses: successResponse(R.CurrentBrand), summary: "Branding (name, color) for the request's host; {brand: null} when the host has none. No authentication." } },
);

export const whitelabelAdminRoutes = new Elysia({ prefix: "/admin/whitelabel", tags: ["admin"], detail: { security: [{ bearer: [] }] } })
  .use(authenticated)
  .get(
    "",
    async ({ ctx }) => {
      const { own, all } = await getWhitelabel(ctx);
      return { own: own ? view(own) : null, ...onePage(all.map(view)) };
    },
    {
      detail: {
        responses: successResponse(R.WhitelabelAdmin),
        summary: "The reseller's own whitelabel and, as one page, the whitelabels the caller may see: platform staff every one (one per reseller), a reseller its own",
      },
    },
  )
  .put("", async ({ ctx, body }) => view(await saveWhitelabel(ctx, body)), {
    body: t.Object({ name: t.String(), color: t.String({ description: "#RRGGBB" }), host: t.String() }),
    detail: {
      responses: successResponse(R.Whitelabel),
      summary: "Create or update the reseller's whitelabel (name, color, host); a host another brand claims, or a platform host, is 422 on host",
    },
  });
