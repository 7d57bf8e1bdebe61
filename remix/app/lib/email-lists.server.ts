/**
 * /mail/optouts and /mail/denylist on the server: the account's e-mail opt-outs and the deny
 * list's e-mail addresses (api/optouts/services.ts: the same tables as the SMS and WhatsApp lists),
 * listed, searched, added to and removed from with plain forms (post-redirect-get with a toast).
 */
import { json, type SerializeFrom } from "@remix-run/node";
import { addEmailDenySchema, addEmailOptoutSchema } from "~api/optouts/schemas";
import { addEmailDenyEntry, addEmailOptout, listEmailDenyList, listEmailOptouts, removeEmailDenyEntry, removeEmailOptout } from "~api/optouts/services";
import { listQuery } from "~/components/optouts/number-list-card";
import { orHttpError, requireRoute } from "./auth.server";
import { deleteIntentSchema, handleForm } from "./forms.server";
import { redirectWithToast } from "./toast.server";

export type EmailListKind = "optouts" | "denylist";
const PATH: Record<EmailListKind, string> = { optouts: "/mail/optouts", denylist: "/mail/denylist" };

/** The list's page (?q= part of an address, ?page=). */
export async function emailListLoader(request: Request, kind: EmailListKind) {
  const ctx = await requireRoute(request);
  const query = listQuery(request);
  type Entry = { id: string; recipient: string; created_at: Date; reason?: string; source?: string };
  const page: { data: Entry[]; page?: number; last_page?: number } = await orHttpError<{ data: Entry[]; page?: number; last_page?: number }>(
    kind === "optouts" ? listEmailOptouts(ctx, query) : listEmailDenyList(ctx, query),
  );
  return json(
    {
      kind,
      path: PATH[kind],
      q: query.q,
      list: {
        page: page.page,
        last_page: page.last_page,
        data: page.data.map((r) => ({ id: r.id, recipient: r.recipient, reason: r.reason ?? "", source: r.source ?? "", created_at: r.created_at })),
      },
    },
    { headers: { "Cache-Control": "private, no-store" } },
  );
}
export type EmailListData = SerializeFrom<typeof emailListLoader>;

/** Add (intent=add) or remove (intent=delete, id) an address. */
export async function emailListAction(request: Request, kind: EmailListKind) {
  const ctx = await requireRoute(request);
  const path = PATH[kind];
  const intent = (await request.clone().formData()).get("intent");
  if (intent === "delete") {
    return handleForm(request, deleteIntentSchema, async ({ id }) => {
      await (kind === "optouts" ? removeEmailOptout(ctx, id) : removeEmailDenyEntry(ctx, id));
      return redirectWithToast(request, path, { type: "success", title: `emailReports:${kind}.removed` });
    });
  }
  if (kind === "optouts")
    return handleForm(request, addEmailOptoutSchema, async (value) => {
      const r = await addEmailOptout(ctx, value);
      return redirectWithToast(request, path, {
        type: "success",
        title: r.created ? "emailReports:optouts.added" : "emailReports:optouts.existing",
        params: { address: r.data.recipient },
      });
    });
  return handleForm(request, addEmailDenySchema, async (value) => {
    const r = await addEmailDenyEntry(ctx, value);
    return redirectWithToast(request, path, {
      type: "success",
      title: r.created ? "emailReports:denylist.added" : "emailReports:denylist.existing",
      params: { address: r.data.recipient },
    });
  });
}
