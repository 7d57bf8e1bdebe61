/**
 * The opt-outs screen of one channel, server side (/whatsapp/optouts, /rcs/optouts): the account's
 * opt-outs of that channel (api/optouts/services.ts) listed and searched, added by hand, removed.
 */
import { json, type SerializeFrom } from "@remix-run/node";
import type { OPTOUT_CHANNELS } from "~api/optouts/constants";
import { addOptoutSchema } from "~api/optouts/schemas";
import { addOptout, listOptouts, removeOptout } from "~api/optouts/services";
import { orHttpError, requireRoute } from "~/lib/auth.server";
import { deleteIntentSchema, handleForm } from "~/lib/forms.server";
import { redirectWithToast } from "~/lib/toast.server";
import { listQuery } from "./number-list-card";

type Channel = Exclude<(typeof OPTOUT_CHANNELS)[number], "sms">;

export async function channelOptoutsLoader(request: Request, channel: Channel, path: string) {
  const ctx = await requireRoute(request);
  const query = listQuery(request);
  return json({ path, channel, list: await orHttpError(listOptouts(ctx, query, { channel })), q: query.q });
}

export async function channelOptoutsAction(request: Request, channel: Channel, path: string) {
  const ctx = await requireRoute(request);
  const intent = (await request.clone().formData()).get("intent");
  if (intent === "delete") {
    return handleForm(request, deleteIntentSchema, async ({ id }) => {
      await removeOptout(ctx, id);
      return redirectWithToast(request, path, { type: "success", title: "smpp:optouts.delete.deleted" });
    });
  }
  return handleForm(request, addOptoutSchema, async (value) => {
    const r = await addOptout(ctx, { ...value, channel }, { source: "manual" });
    return redirectWithToast(request, path, {
      type: "success",
      title: r.created ? "smpp:optouts.add.added" : "smpp:optouts.add.existing",
      params: { number: r.data.recipient_formatted },
    });
  });
}

export type ChannelOptoutsData = SerializeFrom<typeof channelOptoutsLoader>;
