/**
 * The campaigns screens of every channel with campaigns (/sms/campaigns, /whatsapp/campaigns and
 * their {id} pages): loaders and the control action, the channel given by the route
 * (api/campaigns/control.ts CAMPAIGN_AREAS decides who reads and who controls).
 */
import { json } from "@remix-run/node";
import {
  CAMPAIGN_AREAS,
  CAMPAIGN_BASE,
  type CampaignChannel,
  controlCampaign,
  deleteCampaign,
  getCampaign,
  getCampaignClicks,
  listCampaigns,
  readableChannels,
} from "~api/campaigns/control";
import { CAMPAIGN_STATUSES, CONTROL_STATUSES } from "~api/campaigns/schemas";
import { z } from "~api/lib/zod";
import { can } from "~api/policy/policy";
import { orHttpError, requireRoute } from "./auth.server";
import { formatMoney } from "./format";
import { handleForm } from "./forms.server";
import type { Lng } from "./i18n";
import { i18next } from "./i18n.server";
import { redirectWithToast } from "./toast.server";

/**
 * A channel's campaigns, or with "all" (/campaigns) those of every channel the person may read,
 * `?channel=` choosing one; each row links to its channel's campaign page (`bases`).
 */
export async function campaignsLoader(request: Request, channel: CampaignChannel | "all") {
  const ctx = await requireRoute(request);
  const url = new URL(request.url);
  const status = url.searchParams.get("status") ?? "";
  const filter = (CAMPAIGN_STATUSES as readonly string[]).includes(status) ? status : "";
  const page = url.searchParams.get("page") ?? "1";
  const channels = channel === "all" ? readableChannels(ctx) : [channel];
  const asked = url.searchParams.get("channel") ?? "";
  const only = channel === "all" && (channels as string[]).includes(asked) ? asked : "";
  const list = await orHttpError(listCampaigns(ctx, { page: /^\d{1,6}$/.test(page) ? page : "1", status: filter, channel: only }, channel));
  return json({ ...list, status: filter, base: channel === "all" ? "" : CAMPAIGN_BASE[channel], all: channel === "all", channels, channel: only, bases: CAMPAIGN_BASE });
}

const formSchema = z.object({
  intent: z.enum(["control", "delete"], { message: "validation.option" }),
  status: z.enum(CONTROL_STATUSES, { message: "validation.option" }).optional(),
});

export async function campaignLoader(request: Request, id: string, channel: CampaignChannel) {
  const ctx = await requireRoute(request);
  const [{ data }, { data: clicks }] = await orHttpError(Promise.all([getCampaign(ctx, id, channel), getCampaignClicks(ctx, id, channel)]));
  return json({ campaign: data, clicks, canControl: can(ctx.actor, CAMPAIGN_AREAS[channel].write), base: CAMPAIGN_BASE[channel] });
}

export async function campaignAction(request: Request, id: string, channel: CampaignChannel) {
  const ctx = await requireRoute(request);
  const { data: campaign } = await orHttpError(getCampaign(ctx, id, channel));
  const lng = (await i18next.getLocale(request)) as Lng;
  return handleForm(request, formSchema, async (value) => {
    if (value.intent === "delete") {
      await deleteCampaign(ctx, id, channel);
      return redirectWithToast(request, `${CAMPAIGN_BASE[channel]}/campaigns`, { type: "success", title: "smsOps:campaigns.toast.deleted" });
    }
    const out = await controlCampaign(ctx, id, { status: value.status }, channel);
    const refunded = formatMoney(out.meta.refunded, campaign.currency, lng);
    return redirectWithToast(request, `${CAMPAIGN_BASE[channel]}/campaigns/${id}`, {
      type: "success",
      title: out.meta.changed ? `smsOps:campaigns.toast.${value.status}` : "smsOps:campaigns.toast.unchanged",
      params: { count: out.meta.canceled, refunded },
    });
  });
}
