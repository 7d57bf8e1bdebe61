/**
 * What the WhatsApp screens (remix/app/routes/whatsapp/) share on the server: the account's numbers
 * for the selects, the history's filters read from the URL and its page, São Paulo days, and a
 * use-case's AppError with its fields renamed to the form's (a thin adapter: the rules are the
 * use-cases' in api/whatsapp/).
 */
import { json, redirect, type SerializeFrom } from "@remix-run/node";
import { whatsappMessageOf } from "~api/catalog/channels";
import { normalizePhone } from "~api/contacts/phone";
import { can } from "~api/policy/policy";
import { sendableWhatsappTemplates, type SendableTemplate } from "~api/whatsapp/history";
import { acceptWhatsapp, getWhatsappMessage } from "~api/whatsapp/send";
import { getWhatsappWindow, type WindowState } from "~api/whatsapp/window";
import { z } from "~api/lib/zod";
import { deleteWhatsappTemplate, listWhatsappTemplates, TEMPLATE_STATUSES, createWhatsappTemplate, type WhatsappTemplate } from "~api/whatsapp/templates";
import { CAPTIONED, checkSchema, isMediaType, sendFormSchema, sendUrl, TYPES } from "~/components/whatsapp/send-form";
import { dropMediaUnlessSent, dropWhatsappMedia, isMediaKind, storeWhatsappMedia, type MediaKind, type WhatsappMedia } from "~api/whatsapp/media";
import { requireCsrf } from "./csrf.server";
import { streamUpload } from "./uploads.server";
import { formFieldErrors, templateFormSchema, templateInput } from "~/components/whatsapp/template-form-schema";
import { handleForm } from "./forms.server";
import { redirectWithToast } from "./toast.server";
import type { SignedInCtx } from "~api/lib/context";
import { AppError, isAppError } from "~api/lib/errors";
import { EMAIL_ONLY_STATUSES, MESSAGE_STATUSES } from "~api/messages/status";
import { HISTORY_MAX_DAYS, saoPauloToday } from "~api/sms/history";
import { getWhatsappMessageDetail, listWhatsappMessages, type WhatsappHistoryItem } from "~api/whatsapp/history";
import { onpremConnection } from "~api/whatsapp/integrations";
import { listWhatsappNumbers, ownNumber, type WhatsappNumber } from "~api/whatsapp/numbers";
import { whatsappStat } from "~api/whatsapp/reports";
import type { WhatsappHistoryFilters } from "~/components/whatsapp/history-filters";
import { orHttpError, requireRoute } from "./auth.server";
import { filterErrors } from "./sms-reports.server";

/**
 * Which screens: the WhatsApp ones (/whatsapp/*, every number) or the older integration's "jv" ones
 * (/whatsapp/jv/*, the On-Premises numbers only, ADR 035). Links and redirects go under `base`.
 */
export type WhatsappScope = { base: "/whatsapp" | "/whatsapp/jv"; integration?: WhatsappNumber["integration"] };
export const WHATSAPP: WhatsappScope = { base: "/whatsapp" };
export const WHATSAPP_JV: WhatsappScope = { base: "/whatsapp/jv", integration: "onprem" };

/** Every number of the account (of `integration`, when given), oldest first (an account has a handful; the list pages by 200). */
export async function allNumbers(ctx: SignedInCtx, integration?: WhatsappNumber["integration"]): Promise<WhatsappNumber[]> {
  const out: WhatsappNumber[] = [];
  let cursor: string | undefined;
  do {
    const page = await listWhatsappNumbers(ctx, { limit: "200", ...(cursor ? { cursor } : {}) });
    out.push(...page.data);
    cursor = page.next_cursor ?? undefined;
  } while (cursor);
  return integration ? out.filter((n) => n.integration === integration) : out;
}

/** A São Paulo day `n` days before today, YYYY-MM-DD. */
export function saoPauloDaysAgo(n: number, now = new Date()): string {
  const today = saoPauloToday(now);
  const d = new Date(`${today}T12:00:00Z`);
  d.setUTCDate(d.getUTCDate() - n);
  return d.toISOString().slice(0, 10);
}

/** The last `limit` messages of the longest range the history allows (31 São Paulo days up to today). */
export async function recentMessages(ctx: SignedInCtx, limit: number): Promise<WhatsappHistoryItem[]> {
  const { data } = await listWhatsappMessages(ctx, { "created_at[gte]": saoPauloDaysAgo(HISTORY_MAX_DAYS - 1), "created_at[lte]": saoPauloToday(), limit: String(limit) });
  return data;
}

/** The statuses a WhatsApp message can have (both directions). */
export const WHATSAPP_STATUSES = MESSAGE_STATUSES.filter(
  (s) => s !== "pending" && s !== "scheduled" && s !== "unavailable" && !(EMAIL_ONLY_STATUSES as readonly string[]).includes(s),
);

/** The history use-case's input paths as the filter form's fields (a cursor's error shows above the form). */
const FIELD_OF: Record<string, keyof WhatsappHistoryFilters> = { "created_at.gte": "start", "created_at.lte": "end", status: "status", to: "to" };

/** /whatsapp/history (and /whatsapp/jv/history: the On-Premises numbers' messages): the filters of the URL (São Paulo days, today by default), one keyset page, or the filters' errors. */
export async function whatsappHistoryLoader(request: Request, scope: WhatsappScope = WHATSAPP) {
  const ctx = await requireRoute(request);
  const params = new URL(request.url).searchParams;
  const get = (k: string) => params.get(k)?.trim() ?? "";
  const today = saoPauloToday();
  const end = get("end") || today;
  const values: WhatsappHistoryFilters = { start: get("start") || end, end, status: get("status"), to: get("to") };
  const cursor = get("cursor");
  let shown: ReturnType<typeof filterErrors<keyof WhatsappHistoryFilters>> = { errors: {}, formErrors: [] };
  let page: Awaited<ReturnType<typeof listWhatsappMessages>> | null = null;
  try {
    page = await listWhatsappMessages(ctx, {
      status: values.status,
      to: values.to,
      created_at: { gte: values.start, lte: values.end },
      cursor: cursor || undefined,
      ...(scope.integration ? { integration: scope.integration } : {}),
    });
  } catch (e) {
    shown = filterErrors(e, FIELD_OF);
  }
  // Export only where the route has its action (the /whatsapp history; the jv one lists the same messages there).
  const canExport = !scope.integration && can(ctx.actor, "/whatsapp/exports");
  return json({ base: scope.base, page, values, cursor, ...shown, statuses: WHATSAPP_STATUSES, canExport }, { headers: { "Cache-Control": "private, no-store" } });
}

/** /whatsapp/history/{id} (and /whatsapp/jv/history/{id}): one message of the account with its events (another account's is not found). */
export async function whatsappMessageLoader(request: Request, id: string, scope: WhatsappScope = WHATSAPP) {
  const ctx = await requireRoute(request);
  const { data } = await orHttpError(getWhatsappMessageDetail(ctx, id));
  return json({ base: scope.base, message: data }, { headers: { "Cache-Control": "private, no-store" } });
}

/** /whatsapp/reports (and /whatsapp/jv/reports: the On-Premises numbers' messages): the statistics of the GET form's period, or its errors. */
export async function whatsappReportsLoader(request: Request, scope: WhatsappScope = WHATSAPP) {
  const ctx = await requireRoute(request);
  const params = new URL(request.url).searchParams;
  const values = { from: params.get("from")?.trim() ?? "", to: params.get("to")?.trim() ?? "" };
  const headers = { "Cache-Control": "private, no-store" };
  try {
    const stat = await whatsappStat(ctx, { ...values, ...(scope.integration ? { integration: scope.integration } : {}) });
    return json({ base: scope.base, stat, values, errors: {} as Record<string, string[]> }, { headers });
  } catch (e) {
    if (!isAppError(e) || e.code !== "VALIDATION") throw e;
    return json({ base: scope.base, stat: null, values, errors: (e.fields ?? {}) as Record<string, string[]> }, { headers });
  }
}
export type WhatsappReportsData = SerializeFrom<typeof whatsappReportsLoader>;

/** The same AppError with its field names renamed by `rename` (a use-case's input path -> the form's field). */
export function renameFields(e: unknown, rename: (fields: Record<string, string[]>) => Record<string, string[]>): unknown {
  if (!isAppError(e) || !e.fields) return e;
  return new AppError(e.code, { fields: rename(e.fields), params: e.params, message: e.message });
}

/** The send use-case's field names as the send form's. */
function sendFormFields(fields: Record<string, string[]>): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const [k, v] of Object.entries(fields)) {
    const variable = /^template\.variables\.(\d+)$/.exec(k);
    const name = variable
      ? `variables[${variable[1]}]`
      : k === "text" || k === "text.body"
        ? "body"
        : /^(image|video|document|audio|sticker)\.(id|link|caption|filename)$/.test(k)
          ? ({ id: "media_file", link: "media_link", caption: "caption", filename: "media_file" } as Record<string, string>)[k.split(".")[1]]
          : /^(image|video|document|audio|sticker)$/.test(k)
            ? "media_file"
            : k === "template"
              ? "type"
              : k === "template.name" || k === "template.language"
                ? "template_id"
                : k === "template.variables"
                  ? "variables"
                  : k.startsWith("template.")
                    ? k.slice("template.".length)
                    : k;
    (out[name] ??= []).push(...v);
  }
  return out;
}

/** /whatsapp/send and /whatsapp/jv/send: the scope's numbers, the chosen number's approved templates, the contact's window. */
export async function whatsappSendLoader(request: Request, scope: WhatsappScope) {
  const ctx = await requireRoute(request);
  const params = new URL(request.url).searchParams;
  const numbers = await allNumbers(ctx, scope.integration);
  const asked = params.get("number_id") ?? "";
  const numberId = numbers.some((n) => n.id === asked) ? asked : (numbers[0]?.id ?? "");
  const to = params.get("to")?.trim() ?? "";
  // ?product=: a catalogue product's message (api/catalog/channels.ts), an image with its caption.
  const productId = params.get("product");
  const product = productId ? await orHttpError(whatsappMessageOf(ctx, productId)) : null;
  const askedType = product?.type ?? params.get("type") ?? "";
  const type = (TYPES as readonly string[]).includes(askedType) ? askedType : "template";
  const templates: SendableTemplate[] = numberId ? (await sendableWhatsappTemplates(ctx, numberId)).data : [];
  const askedTemplate = params.get("template") ?? "";
  const templateId = templates.some((x) => x.id === askedTemplate) ? askedTemplate : (templates[0]?.id ?? "");
  let window: WindowState | null = null;
  let toErrors: string[] | null = null;
  if (numberId && to) {
    try {
      window = (await getWhatsappWindow(ctx, { number_id: numberId, to: normalizePhone(to) ?? to })).data;
    } catch (e) {
      if (!isAppError(e) || e.code !== "VALIDATION") throw e;
      toErrors = e.fields?.to ?? ["validation.phone"];
    }
  }
  return json(
    {
      base: scope.base,
      numbers: numbers.map((n) => ({ id: n.id, label: `${n.display_phone_number || n.phone_number_id} — ${n.verified_name}` })),
      numberId,
      to,
      type,
      templates,
      templateId,
      window,
      toErrors,
      idempotencyKey: crypto.randomUUID(),
      prefill: product ? (product.type === "image" ? { media_link: product.media_link, caption: product.caption } : { body: product.text }) : {},
      canNewTemplate: can(ctx.actor, `${scope.base}/templates/new`),
    },
    { headers: { "Cache-Control": "private, no-store" } },
  );
}

export type WhatsappSendData = SerializeFrom<typeof whatsappSendLoader>;

/**
 * The send form's post: "check" reloads the page for the choice, "send" accepts the message
 * (acceptWhatsapp) and goes to the scope's success page. The form is multipart: a media message's
 * file (media_file) is streamed into storage while it arrives, checked by its content against the
 * chosen kind's types and limit (~api/whatsapp/media.ts; refused as soon as it passes the limit),
 * and sent by id, which the send turns into the signed link the provider fetches. The CSRF token
 * and the type come before the file in the form; a file of a refused send is forgotten.
 */
export async function whatsappSendAction(request: Request, scope: WhatsappScope) {
  const ctx = await requireRoute(request);
  let fields: FormData;
  let stored: WhatsappMedia | null = null;
  let uploadError: unknown = null;
  let sent = false;
  if (/^multipart\/form-data;/i.test(request.headers.get("Content-Type") ?? "")) {
    let kind: MediaKind | null = null;
    const upload = await streamUpload(request, {
      fileField: "media_file",
      // "Check" comes before the file in the form: a file after it is not read. Send is the last button, so its intent follows the file.
      acceptFiles: async (f) => {
        const type = f.get("type");
        if (f.get("intent") === "check" || !isMediaKind(type)) return false;
        if (
          !(await requireCsrf(request, f).then(
            () => true,
            () => false,
          ))
        )
          return false;
        kind = type;
        return true;
      },
      consume: async (files) => {
        for await (const file of files) return storeWhatsappMedia(ctx, { kind, name: file.name, stream: file.stream });
        return null;
      },
    });
    fields = upload.fields;
    if (upload.outcome.status === "ok") stored = upload.outcome.value;
    if (upload.outcome.status === "error") uploadError = upload.outcome.error;
  } else fields = await request.formData().catch(() => new FormData());
  try {
    if (fields.get("intent") === "check") return await handleForm(request, checkSchema, async (v) => redirect(sendUrl(scope.base, v)), { formData: fields });
    return await handleForm(
      request,
      sendFormSchema,
      async (form) => {
        const to = normalizePhone(form.to) ?? form.to;
        let input: Record<string, unknown>;
        if (form.type === "text") input = { from: form.from, to, type: "text", text: { body: form.body ?? "" } };
        else if (isMediaType(form.type)) {
          if (uploadError) throw renameFields(uploadError, (f) => ({ media_file: f.file ?? Object.values(f).flat() }));
          const link = form.media_link?.trim();
          if (!stored && !link) throw new AppError("VALIDATION", { fields: { media_file: ["validation.waMediaLinkOrFile"] } });
          if (stored && link) throw new AppError("VALIDATION", { fields: { media_link: ["validation.waMediaLinkOrFile"] } });
          const caption = (CAPTIONED as readonly string[]).includes(form.type) && form.caption?.trim() ? { caption: form.caption.trim() } : {};
          input = { from: form.from, to, type: form.type, [form.type]: { ...(stored ? { id: stored.id } : { link }), ...caption } };
        } else {
          const templates = await sendableWhatsappTemplates(ctx, form.from).catch(() => {
            throw new AppError("VALIDATION", { fields: { from: ["validation.option"] } });
          });
          const tpl = templates.data.find((x) => x.id === form.template_id);
          if (!tpl) throw new AppError("VALIDATION", { fields: { template_id: ["validation.waTemplateNotApproved"] } });
          input = {
            from: form.from,
            to,
            type: "template",
            template: {
              name: tpl.name,
              language: tpl.language,
              variables: (form.variables ?? []).map((x) => x ?? ""),
              ...(tpl.header_variable ? { header_variable: form.header_variable ?? "" } : {}),
              ...(tpl.button_variable ? { button_variable: form.button_variable ?? "" } : {}),
            },
          };
        }
        if (scope.integration && !(await allNumbers(ctx, scope.integration)).some((n) => n.id === form.from))
          throw new AppError("VALIDATION", { fields: { from: ["validation.option"] } });
        const { data } = await acceptWhatsapp(ctx, input, form.idempotency_key || null).catch((e) => {
          throw renameFields(e, sendFormFields);
        });
        sent = true;
        if (stored) await dropMediaUnlessSent(ctx.actor.accountId, stored.id, data.id);
        return redirectWithToast(request, `${scope.base}/success?message=${data.id}`, { type: "success", title: "whatsapp:send.accepted" });
      },
      { formData: fields },
    );
  } finally {
    if (stored && !sent) await dropWhatsappMedia(ctx.actor.accountId, stored.id).catch(() => undefined);
  }
}

/** /whatsapp/success and /whatsapp/jv/success: the message a send accepted (?message=; another account's or none: not found). */
export async function whatsappSuccessLoader(request: Request, scope: WhatsappScope) {
  const ctx = await requireRoute(request);
  const id = new URL(request.url).searchParams.get("message") ?? "";
  const { data } = await orHttpError(getWhatsappMessage(ctx, id));
  return json({ base: scope.base, message: data }, { headers: { "Cache-Control": "private, no-store" } });
}

export type WhatsappHistoryData = SerializeFrom<typeof whatsappHistoryLoader>;
export type WhatsappMessageData = SerializeFrom<typeof whatsappMessageLoader>;
export type WhatsappSuccessData = SerializeFrom<typeof whatsappSuccessLoader>;

const TEMPLATES_PAGE = 50;
const templateDeleteSchema = z.object({ intent: z.literal("delete"), id: z.string().min(1, "validation.required") });

/**
 * /whatsapp/templates and /whatsapp/jv/templates: a keyset page of the account's templates filtered
 * by status and number. In the jv scope only the On-Premises numbers are offered, and with no number
 * chosen the page keeps only their templates (so a page may hold fewer than TEMPLATES_PAGE rows).
 */
export async function whatsappTemplatesLoader(request: Request, scope: WhatsappScope) {
  const ctx = await requireRoute(request);
  const params = new URL(request.url).searchParams;
  const values = { status: params.get("status")?.trim() ?? "", number_id: params.get("number_id")?.trim() ?? "" };
  const cursor = params.get("cursor")?.trim() ?? "";
  let page: { data: WhatsappTemplate[]; next_cursor: string | null } | null = null;
  let errors: Record<string, string[]> = {};
  try {
    page = await listWhatsappTemplates(ctx, {
      status: values.status || undefined,
      number_id: values.number_id || undefined,
      cursor: cursor || undefined,
      limit: String(TEMPLATES_PAGE),
    });
  } catch (e) {
    // The template list's use-case answers for /whatsapp/templates, hidden from some roles the spec lets reach /whatsapp/jv/templates: they see no list.
    if (isAppError(e) && e.code === "FORBIDDEN" && scope.integration) page = null;
    else if (!isAppError(e) || e.code !== "VALIDATION") throw e;
    else errors = e.fields ?? {};
  }
  const numbers = await allNumbers(ctx, scope.integration);
  if (page && scope.integration) {
    const ids = new Set(numbers.map((n) => n.id));
    page = { ...page, data: page.data.filter((x) => ids.has(x.number_id)) };
  }
  return json(
    {
      base: scope.base,
      page,
      values,
      cursor,
      errors,
      statuses: TEMPLATE_STATUSES,
      numbers: numbers.map((n) => ({ id: n.id, label: n.display_phone_number || n.phone_number_id })),
      canManage: can(ctx.actor, `${scope.base}/templates/new`),
    },
    { headers: { "Cache-Control": "private, no-store" } },
  );
}

/** The templates list's delete. */
export async function whatsappTemplatesAction(request: Request, scope: WhatsappScope) {
  const ctx = await requireRoute(request);
  return handleForm(request, templateDeleteSchema, async ({ id }) => {
    await deleteWhatsappTemplate(ctx, id);
    return redirectWithToast(request, `${scope.base}/templates`, { type: "success", title: "whatsapp:templates.deleted" });
  });
}

export type WhatsappTemplatesData = SerializeFrom<typeof whatsappTemplatesLoader>;

/** /whatsapp/templates/new and /whatsapp/jv/templates/new: the scope's numbers to create a template for. */
export async function whatsappTemplateNewLoader(request: Request, scope: WhatsappScope) {
  const ctx = await requireRoute(request);
  const numbers = await allNumbers(ctx, scope.integration);
  return json({
    numbers: numbers.map((n) => ({ id: n.id, label: `${n.display_phone_number || n.phone_number_id} — ${n.verified_name}` })),
    base: scope.base,
    connectUrl: scope.integration === "onprem" ? "/whatsapp/jv/numbers/new" : "/whatsapp",
    canConnect: can(ctx.actor, "/whatsapp/jv/numbers/new") && can(ctx.actor, scope.integration === "onprem" ? "/whatsapp/jv/numbers/new" : "/whatsapp"),
  });
}

/** Creates the template (createWhatsappTemplate; in the jv scope only for an On-Premises number) and goes back to the list. */
export async function whatsappTemplateNewAction(request: Request, scope: WhatsappScope) {
  const ctx = await requireRoute(request);
  return handleForm(request, templateFormSchema, async (form) => {
    const { input, slots } = templateInput(form);
    if (scope.integration && !(await allNumbers(ctx, scope.integration)).some((x) => x.id === input.number_id))
      throw new AppError("VALIDATION", { fields: { number_id: ["validation.option"] } });
    const { data } = await createWhatsappTemplate(ctx, input).catch((e) => {
      throw renameFields(e, (fields) => formFieldErrors(fields, slots));
    });
    const to = can(ctx.actor, `${scope.base}/templates`) ? `${scope.base}/templates` : `${scope.base}/templates/new`;
    return redirectWithToast(request, to, { type: "success", title: "whatsapp:templateForm.created", params: { name: data.name } });
  });
}

export type WhatsappTemplateNewData = SerializeFrom<typeof whatsappTemplateNewLoader>;

/**
 * /whatsapp/jv/numbers: the account's On-Premises numbers with the origin of their client's base URL
 * (which BSP; read from the sealed connection, only the origin leaves the server: never the path,
 * the username or the password) and the webhook URL the client posts to (without its token).
 */
export async function whatsappJvNumbersLoader(request: Request) {
  const ctx = await requireRoute(request);
  const numbers = await allNumbers(ctx, "onprem");
  const rows = await Promise.all(
    numbers.map(async (n) => {
      let origin = "";
      try {
        origin = new URL(onpremConnection(await ownNumber(ctx.actor.accountId, n.id)).baseUrl).origin;
      } catch {
        origin = "";
      }
      return { ...n, base_url_origin: origin };
    }),
  );
  return json(
    { numbers: rows, can: { connect: can(ctx.actor, "/whatsapp/jv/numbers/new"), templates: can(ctx.actor, "/whatsapp/jv/templates"), send: can(ctx.actor, "/whatsapp/jv/send") } },
    { headers: { "Cache-Control": "private, no-store" } },
  );
}
export type WhatsappJvNumbersData = SerializeFrom<typeof whatsappJvNumbersLoader>;
