/**
 * What the RCS send and history screens (remix/app/routes/rcs/) do on the server: a thin adapter
 * over the use-cases (api/rcs/send.ts acceptRcs / quoteRcs, api/rcs/history.ts, the composer's
 * options in api/rcs/send-options.ts). The composer's form is read by components/rcs/composer.ts
 * (the same code the browser's live preview runs), and the send's field errors are put back at
 * the slot inputs they came from.
 */
import { json, type SerializeFrom } from "@remix-run/node";
import { rcsCardOf } from "~api/catalog/channels";
import { normalizePhone } from "~api/contacts/phone";
import { isAppError } from "~api/lib/errors";
import { EMAIL_ONLY_STATUSES, MESSAGE_STATUSES } from "~api/messages/status";
import { can } from "~api/policy/policy";
import { getRcsMessageDetail, listRcsMessages } from "~api/rcs/history";
import { acceptRcs, quoteRcs } from "~api/rcs/send";
import { rcsPriceList, sendableRcsAgents, sendableRcsTemplates } from "~api/rcs/send-options";
import { saoPauloToday } from "~api/sms/history";
import { contentOf, errorFieldsToInputs, RCS_TYPES, stateFromContent, stateFromForm, type ComposerState } from "~/components/rcs/composer";
import type { PreviewContent } from "~/components/rcs/preview";
import { orHttpError, requireRoute } from "./auth.server";
import { requireCsrf } from "./csrf.server";
import { filterErrors } from "./sms-reports.server";
import { redirectWithToast } from "./toast.server";

const noStore = { "Cache-Control": "private, no-store" };

/**
 * /rcs/send: the launched agents, the templates, the prices by class and the form's first values
 * (?template= loads a template's content; ?product= a catalogue product's card, api/catalog/channels.ts;
 * ?agent_id=, ?to= keep those).
 */
export async function rcsSendLoader(request: Request) {
  const ctx = await requireRoute(request);
  const params = new URL(request.url).searchParams;
  const [agents, templates, prices] = await Promise.all([sendableRcsAgents(ctx), sendableRcsTemplates(ctx), rcsPriceList(ctx)]);
  const templateId = params.get("template") ?? "";
  const template = templates.find((x) => x.id === templateId) ?? null;
  const askedAgent = params.get("agent_id") ?? "";
  const base = {
    agent_id: agents.some((a) => a.id === askedAgent) ? askedAgent : (agents[0]?.id ?? ""),
    to: params.get("to")?.trim() ?? "",
    fallback_sms: prices.fallback_sms,
  };
  const productId = params.get("product");
  const productCard: PreviewContent | null = productId ? await orHttpError(rcsCardOf(ctx, productId)) : null;
  const initial: ComposerState = stateFromContent(productCard ?? (template ? (template.content as PreviewContent) : null), base);
  return json(
    {
      agents: agents.map((a) => ({ id: a.id, name: a.name, color: a.color, logo_url: a.logo_url })),
      templates: templates.map((x) => ({ id: x.id, name: x.name })),
      templateId: template?.id ?? "",
      prices,
      initial,
      idempotencyKey: crypto.randomUUID(),
    },
    { headers: noStore },
  );
}
export type RcsSendData = SerializeFrom<typeof rcsSendLoader>;

/** The action's answer when the page is shown again: the form as posted, the send's errors at their inputs, the price ("Preview"). */
export type RcsSendReply = {
  state: ComposerState;
  errors: Record<string, string[]>;
  formErrors: string[];
  quote: { price_class: "basic" | "rich"; price: number; currency: string } | null;
  previewed: boolean;
};

/**
 * The composer's post. "preview" checks and prices the message (quoteRcs: nothing written) and
 * shows the page again with the preview and the price; "send" accepts it (acceptRcs, the hidden
 * idempotency key making a double submit one message) and goes to /rcs/success?id=.
 */
export async function rcsSendAction(request: Request) {
  const ctx = await requireRoute(request, "/rcs/send");
  const fd = await request.formData().catch(() => new FormData());
  const state = stateFromForm(fd);
  const reply = (r: Partial<RcsSendReply>, status = 200) =>
    json<RcsSendReply>({ state, errors: {}, formErrors: [], quote: null, previewed: false, ...r }, { status, headers: noStore });
  try {
    await requireCsrf(request, fd);
  } catch {
    return reply({ formErrors: ["errors.CSRF"] }, 403);
  }
  const { content, slots } = contentOf(state);
  const input = { agent_id: state.agent_id, to: normalizePhone(state.to) ?? state.to, content, fallback_sms: state.fallback_sms };
  try {
    if (fd.get("intent") === "send") {
      const key = String(fd.get("idempotency_key") ?? "").trim();
      const { data } = await acceptRcs(ctx, input, key || null);
      return redirectWithToast(request, `/rcs/success?id=${data.id}`, { type: "success", title: "rcs:send.accepted" });
    }
    const { data } = await quoteRcs(ctx, input);
    return reply({ quote: data, previewed: true });
  } catch (e) {
    if (!isAppError(e)) throw e;
    return reply(
      { errors: e.fields ? errorFieldsToInputs(e.fields, slots) : {}, formErrors: e.fields ? [] : [`errors.${e.code}`], previewed: fd.get("intent") !== "send" },
      e.status,
    );
  }
}

/** /rcs/success?id=: the message a send accepted, with its preview (another account's or none: not found). */
export async function rcsSuccessLoader(request: Request) {
  const ctx = await requireRoute(request);
  const id = new URL(request.url).searchParams.get("id") ?? "";
  const { data } = await orHttpError(getRcsMessageDetail(ctx, id));
  return json({ message: data }, { headers: noStore });
}
export type RcsSuccessData = SerializeFrom<typeof rcsSuccessLoader>;

/** The statuses an RCS message can have (both directions). */
export const RCS_STATUSES = MESSAGE_STATUSES.filter((s) => s !== "pending" && s !== "unavailable" && !(EMAIL_ONLY_STATUSES as readonly string[]).includes(s));

export type RcsHistoryFilters = { start: string; end: string; status: string; to: string; type: string };
const FIELD_OF: Record<string, keyof RcsHistoryFilters> = { "created_at.gte": "start", "created_at.lte": "end", status: "status", to: "to", type: "type" };

/** /rcs/history: the filters of the URL (São Paulo days, today by default), one keyset page, or the filters' errors. */
export async function rcsHistoryLoader(request: Request) {
  const ctx = await requireRoute(request);
  const params = new URL(request.url).searchParams;
  const get = (k: string) => params.get(k)?.trim() ?? "";
  const end = get("end") || saoPauloToday();
  const values: RcsHistoryFilters = { start: get("start") || end, end, status: get("status"), to: get("to"), type: get("type") };
  const cursor = get("cursor");
  let shown: ReturnType<typeof filterErrors<keyof RcsHistoryFilters>> = { errors: {}, formErrors: [] };
  let page: Awaited<ReturnType<typeof listRcsMessages>> | null = null;
  try {
    page = await listRcsMessages(ctx, {
      status: values.status,
      to: values.to,
      type: values.type,
      created_at: { gte: values.start, lte: values.end },
      cursor: cursor || undefined,
    });
  } catch (e) {
    shown = filterErrors(e, FIELD_OF);
  }
  return json({ page, values, cursor, ...shown, statuses: RCS_STATUSES, types: RCS_TYPES, canSend: can(ctx.actor, "/rcs/send") }, { headers: noStore });
}
export type RcsHistoryData = SerializeFrom<typeof rcsHistoryLoader>;

/** /rcs/history/{id}: one message of the account with its preview, events, SMS leg and the handset's answers. */
export async function rcsMessageLoader(request: Request, id: string) {
  const ctx = await requireRoute(request);
  const { data } = await orHttpError(getRcsMessageDetail(ctx, id));
  return json({ message: data }, { headers: noStore });
}
export type RcsMessageData = SerializeFrom<typeof rcsMessageLoader>;
