/**
 * Moderation API (spec section 7): opt-outs with their keyword settings, the account's inbound
 * keywords one by one ("keywords": opt-out or resume), and the deny list under the spec's name
 * "blacklist". Thin: the use-cases validate, check permission (/sms/optouts,
 * /sms/denylist) and scope by account. /optouts/settings comes before /optouts/:id.
 */
import { Elysia, t } from "elysia";
import { authenticated } from "../http/auth";
import { created } from "../http/created";
import { createdResponse, successResponse } from "../http/openapi";
import { AppError, isAppError } from "../lib/errors";
import { pageQuery } from "../lib/page-schema";
import { addKeyword, getKeyword, listKeywords, removeKeyword, removeKeywords, updateKeyword } from "./account-keywords";
import * as R from "./responses";
import {
  addDenyEntry,
  addOptout,
  getDenyEntry,
  getOptout,
  getOptoutSettings,
  listDenyList,
  listOptouts,
  removeDenyEntry,
  removeOptout,
  saveOptoutSettings,
  updateDenyEntry,
  updateOptout,
} from "./services";

const bearer = [{ bearer: [] }];
const id = t.Object({ id: t.String() });
const listQuery = t.Object({
  q: t.Optional(t.String({ description: "Digits of the number" })),
  ...pageQuery,
  page: t.Optional(
    t.String({ deprecated: true, description: "Instead of cursor: 1-based page of `limit` (OFFSET paging); the answer then also carries page, last_page and total" }),
  ),
});
/** The number of an opt-out or deny-list entry: `to` (the spec's name), or the deprecated `recipient`. */
const number = {
  to: t.Optional(t.String({ description: "The number, any format; stored E.164 (+55 assumed for 10 or 11 digits). Required" })),
  recipient: t.Optional(t.String({ deprecated: true, description: "Alias of to (used when to is absent)" })),
};

/**
 * Runs a use-case (which reads the number as `recipient`, as the web's forms send it) with `to` or
 * its alias; a field error on the number names the field the caller used (`to` unless only
 * `recipient` was sent).
 */
export async function withTo<B extends { to?: string; recipient?: string }, R>(body: B, run: (input: Omit<B, "to"> & { recipient?: string }) => Promise<R>): Promise<R> {
  const { to, ...rest } = body;
  try {
    return await run({ ...rest, recipient: to ?? body.recipient });
  } catch (e) {
    const aliasOnly = to === undefined && body.recipient !== undefined;
    if (aliasOnly || !isAppError(e) || !e.fields?.recipient) throw e;
    const { recipient, ...others } = e.fields;
    throw new AppError(e.code, { fields: { to: recipient, ...others }, params: e.params });
  }
}

export const created201 = (...a: Parameters<typeof createdResponse>) => createdResponse(...a) as unknown as ReturnType<typeof successResponse>;
/** 201 + Location for a new entry; an entry that was already there is answered 200 as it is. */
export const createdOr200 = <T extends { data: { id: string }; created: boolean }>(set: Parameters<typeof created>[0], path: string, r: T) =>
  r.created ? created(set, `${path}/${r.data.id}`, r) : r;
const keywordBody = t.Object({
  keyword: t.String({ description: "One word (no spaces), up to 30 characters; stored uppercase; unique per account ignoring case and accents" }),
  action: t.Union([t.Literal("optout"), t.Literal("resume")], { description: "optout: the reply opts the number out (SAIR); resume: it opts back in (VOLTAR)" }),
});
const keywords = t.Union([t.Array(t.String()), t.String()], { description: "1 to 20 single words; stored uppercase, repeated words once" });

export const optoutRoutes = new Elysia({ tags: ["moderation"], detail: { security: bearer } })
  .use(authenticated)
  .get("/optouts/settings", ({ ctx }) => getOptoutSettings(ctx), {
    detail: { responses: successResponse(R.OptoutSettings), summary: "Opt-out and resume keywords of the account (defaults when never saved)" },
  })
  .put("/optouts/settings", ({ ctx, body }) => saveOptoutSettings(ctx, body), {
    body: t.Object({ keywords, resume_keywords: keywords }),
    detail: {
      responses: successResponse(R.OptoutSettings),
      summary: "Replace the opt-out keywords (SAIR, PARAR…) and the resume keywords (VOLTAR, START); a word cannot be in both",
    },
  })
  .get("/keywords", ({ ctx, query }) => listKeywords(ctx, query), {
    query: t.Object({ action: t.Optional(t.String({ description: "optout or resume; all when absent" })) }),
    detail: {
      responses: successResponse(R.KeywordList),
      summary:
        "Inbound keywords of the account: a reply that is only this word (trimmed, any case, accents ignored) opts the number out or back in. At most 20 of each action: one page (next_cursor null)",
    },
  })
  .post(
    "/keywords",
    async ({ ctx, body, set }) => {
      const r = await addKeyword(ctx, body);
      return created(set, `/api/keywords/${r.data.id}`, r);
    },
    {
      body: keywordBody,
      detail: { responses: created201(R.KeywordOne), summary: "Add a keyword (a word already there, even spelled with other accents: 422 on keyword; at most 20 per action)" },
    },
  )
  .delete("/keywords", ({ ctx, body }) => removeKeywords(ctx, body), {
    body: t.Object({ ids: t.Array(t.String(), { description: "Up to 100 keyword ids; unknown ids and other accounts' are ignored" }) }),
    detail: { responses: successResponse(R.KeywordsDeleted), summary: "Delete several keywords: answers how many and their ids (removing every opt-out keyword is refused: 422)" },
  })
  .get("/keywords/:id", ({ ctx, params }) => getKeyword(ctx, params.id), {
    params: id,
    detail: { responses: successResponse(R.KeywordOne), summary: "One keyword of the account" },
  })
  .put("/keywords/:id", ({ ctx, params, body }) => updateKeyword(ctx, params.id, body), {
    params: id,
    body: keywordBody,
    detail: { responses: successResponse(R.KeywordOne), summary: "Change a keyword's word or action (the last opt-out keyword cannot become a resume one)" },
  })
  .delete("/keywords/:id", ({ ctx, params }) => removeKeyword(ctx, params.id), {
    params: id,
    detail: { responses: successResponse(R.Ok), summary: "Delete a keyword (the last opt-out keyword cannot be deleted: 422)" },
  })
  .get("/optouts", ({ ctx, query }) => listOptouts(ctx, query), {
    query: listQuery,
    detail: { responses: successResponse(R.OptoutPage), summary: "Opt-outs of the account, newest first (created_at, id), keyset paged (cursor, limit: 50 by default)" },
  })
  .get("/optouts/:id", ({ ctx, params }) => getOptout(ctx, params.id), { params: id, detail: { responses: successResponse(R.OptoutOne), summary: "One opt-out of the account" } })
  .post("/optouts", async ({ ctx, body, set }) => createdOr200(set, "/api/optouts", await withTo(body, (input) => addOptout(ctx, input, { source: "api" }))), {
    body: t.Object({
      ...number,
      channel: t.Optional(t.Union([t.Literal("sms"), t.Literal("whatsapp"), t.Literal("rcs"), t.Literal(""), t.Null()], { description: "Default sms" })),
    }),
    detail: {
      responses: {
        ...created201(R.OptoutSaved, "Opted out (created: true): Location is the entry"),
        ...successResponse(R.OptoutSaved, "Already opted out: the existing entry (created: false)"),
      },
      summary: "Opt a number out (source api): 201 + Location. Adding one already there answers 200 with the existing entry and created: false",
    },
  })
  .put("/optouts/:id", ({ ctx, params, body }) => withTo(body, (input) => updateOptout(ctx, params.id, input)), {
    params: id,
    body: t.Object({
      ...number,
      channel: t.Optional(t.Union([t.Literal("sms"), t.Literal("whatsapp"), t.Literal("rcs"), t.Literal(""), t.Null()], { description: "Default sms" })),
    }),
    detail: { responses: successResponse(R.OptoutOne), summary: "Change an opt-out's number or channel (another entry with them: 422 on to)" },
  })
  .delete("/optouts/:id", ({ ctx, params }) => removeOptout(ctx, params.id), {
    params: id,
    detail: { responses: successResponse(R.Ok), summary: "Remove an opt-out: the number may be sent to again" },
  })
  .get("/blacklist", ({ ctx, query }) => listDenyList(ctx, query), {
    query: listQuery,
    detail: { responses: successResponse(R.DenyPage), summary: "Deny list of the account, newest first (created_at, id), keyset paged (cursor, limit: 50 by default)" },
  })
  .get("/blacklist/:id", ({ ctx, params }) => getDenyEntry(ctx, params.id), {
    params: id,
    detail: { responses: successResponse(R.DenyOne), summary: "One deny-list entry of the account" },
  })
  .post("/blacklist", async ({ ctx, body, set }) => createdOr200(set, "/api/blacklist", await withTo(body, (input) => addDenyEntry(ctx, input))), {
    body: t.Object({
      ...number,
      reason: t.Optional(t.Union([t.String({ description: "Up to 255 characters" }), t.Null()])),
    }),
    detail: {
      responses: {
        ...created201(R.DenySaved, "Denied (created: true): Location is the entry"),
        ...successResponse(R.DenySaved, "Already denied: the existing entry (created: false)"),
      },
      summary: "Deny a number: sends to it end as rejected, not charged. 201 + Location; adding one already there answers 200 with the existing entry (created: false)",
    },
  })
  .put("/blacklist/:id", ({ ctx, params, body }) => withTo(body, (input) => updateDenyEntry(ctx, params.id, input)), {
    params: id,
    body: t.Object({
      ...number,
      reason: t.Optional(t.Union([t.String({ description: "Up to 255 characters" }), t.Null()])),
    }),
    detail: { responses: successResponse(R.DenyOne), summary: "Change a deny-list entry's number or reason (another entry with the number: 422 on to)" },
  })
  .delete("/blacklist/:id", ({ ctx, params }) => removeDenyEntry(ctx, params.id), {
    params: id,
    detail: { responses: successResponse(R.Ok), summary: "Remove a number from the deny list" },
  });
