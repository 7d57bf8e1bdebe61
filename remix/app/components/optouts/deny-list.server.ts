/**
 * The deny list screen's server side, shared by /sms/denylist, /whatsapp/denylist and
 * /whatsapp/jv/denylist: the account's one deny list (numbers refused on every channel; the
 * use-cases are api/optouts/services.ts), listed, searched, added to, edited and removed from.
 */
import { json, type SerializeFrom } from "@remix-run/node";
import { z } from "~api/lib/zod";
import { addDenySchema } from "~api/optouts/schemas";
import { addDenyEntry, listDenyList, removeDenyEntry, updateDenyEntry } from "~api/optouts/services";
import { orHttpError, requireRoute } from "~/lib/auth.server";
import { deleteIntentSchema, handleForm } from "~/lib/forms.server";
import { redirectWithToast } from "~/lib/toast.server";
import { listQuery } from "./number-list-card";

const editSchema = addDenySchema.extend({ intent: z.literal("edit"), id: z.string().min(1, "validation.required") });

/** The deny list screen's loader (`path`: /sms/denylist, /whatsapp/denylist or /whatsapp/jv/denylist, where its forms and links go). */
export async function denyListLoader(request: Request, path: string) {
  const ctx = await requireRoute(request);
  const query = listQuery(request);
  return json({ path, list: await orHttpError(listDenyList(ctx, query)), q: query.q });
}

/** Add, edit and remove of the deny list screen at `path`. */
export async function denyListAction(request: Request, path: string) {
  const ctx = await requireRoute(request);
  const intent = (await request.clone().formData()).get("intent");
  if (intent === "delete") {
    return handleForm(request, deleteIntentSchema, async ({ id }) => {
      await removeDenyEntry(ctx, id);
      return redirectWithToast(request, path, { type: "success", title: "smpp:denylist.delete.deleted" });
    });
  }
  if (intent === "edit") {
    return handleForm(request, editSchema, async ({ id, ...value }) => {
      const r = await updateDenyEntry(ctx, id, value);
      return redirectWithToast(request, path, { type: "success", title: "smpp:denylist.edit.saved", params: { number: r.data.recipient_formatted } });
    });
  }
  return handleForm(request, addDenySchema, async (value) => {
    const r = await addDenyEntry(ctx, value);
    return redirectWithToast(request, path, {
      type: "success",
      title: r.created ? "smpp:denylist.add.added" : "smpp:denylist.add.existing",
      params: { number: r.data.recipient_formatted },
    });
  });
}

export type DenyListData = SerializeFrom<typeof denyListLoader>;
