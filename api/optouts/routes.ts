/**
 * Moderation API (spec section 7): opt-outs with their keyword settings, the account's inbound
 * keywords one by one ("keywords": opt-out or resume), and the deny list under the spec's name
 * "blacklist". Thin: the use-cases validate, check permission (/sms/optouts,
 * /sms/denylist) and scope by account. /optouts/settings comes before /optouts/:id.
 */
import { Elysia, t } from "elysia";
import { authenticated } from "../http/auth";
import { addKeyword, listKeywords, removeKeyword, removeKeywords, updateKeyword } from "./account-keywords";
import {
  addDenyEntry,
  addOptout,
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
  page: t.Optional(t.String({ description: "1-based page (50 a page); the answer carries last_page" })),
  q: t.Optional(t.String({ description: "Digits of the number" })),
});
const keywordBody = t.Object({
  keyword: t.String({ description: "One word (no spaces), up to 30 characters; stored uppercase; unique per account ignoring case and accents" }),
  action: t.Union([t.Literal("optout"), t.Literal("resume")], { description: "optout: the reply opts the number out (SAIR); resume: it opts back in (VOLTAR)" }),
});
const keywords = t.Union([t.Array(t.String()), t.String()], { description: "1 to 20 single words; stored uppercase, repeated words once" });

export const optoutRoutes = new Elysia({ tags: ["moderation"], detail: { security: bearer } })
  .use(authenticated)
  .get("/optouts/settings", ({ ctx }) => getOptoutSettings(ctx), { detail: { summary: "Opt-out and resume keywords of the account (defaults when never saved)" } })
  .put("/optouts/settings", ({ ctx, body }) => saveOptoutSettings(ctx, body), {
    body: t.Object({ keywords, resume_keywords: keywords }),
    detail: { summary: "Replace the opt-out keywords (SAIR, PARAR…) and the resume keywords (VOLTAR, START); a word cannot be in both" },
  })
  .get("/keywords", ({ ctx, query }) => listKeywords(ctx, query), {
    query: t.Object({ action: t.Optional(t.String({ description: "optout or resume; all when absent" })) }),
    detail: { summary: "Inbound keywords of the account: a reply that is only this word (trimmed, any case, accents ignored) opts the number out or back in" },
  })
  .post("/keywords", ({ ctx, body }) => addKeyword(ctx, body), {
    body: keywordBody,
    detail: { summary: "Add a keyword (a word already there, even spelled with other accents: 422 on keyword; at most 20 per action)" },
  })
  .delete("/keywords", ({ ctx, body }) => removeKeywords(ctx, body), {
    body: t.Object({ ids: t.Array(t.String(), { description: "Up to 100 keyword ids; unknown ids and other accounts' are ignored" }) }),
    detail: { summary: "Delete several keywords: answers how many and their ids (removing every opt-out keyword is refused: 422)" },
  })
  .put("/keywords/:id", ({ ctx, params, body }) => updateKeyword(ctx, params.id, body), {
    params: id,
    body: keywordBody,
    detail: { summary: "Change a keyword's word or action (the last opt-out keyword cannot become a resume one)" },
  })
  .delete("/keywords/:id", ({ ctx, params }) => removeKeyword(ctx, params.id), {
    params: id,
    detail: { summary: "Delete a keyword (the last opt-out keyword cannot be deleted: 422)" },
  })
  .get("/optouts", ({ ctx, query }) => listOptouts(ctx, query), { query: listQuery, detail: { summary: "Opt-outs of the account, newest first" } })
  .post("/optouts", ({ ctx, body }) => addOptout(ctx, body, { source: "api" }), {
    body: t.Object({
      recipient: t.String({ description: "Any format; stored E.164 (+55 assumed for 10 or 11 digits)" }),
      channel: t.Optional(t.Union([t.Literal("sms"), t.Literal("whatsapp"), t.Literal("rcs"), t.Literal(""), t.Null()], { description: "Default sms" })),
    }),
    detail: { summary: "Opt a number out (source api). Adding one already there answers the existing entry with created: false" },
  })
  .put("/optouts/:id", ({ ctx, params, body }) => updateOptout(ctx, params.id, body), {
    params: id,
    body: t.Object({
      recipient: t.String({ description: "Any format; stored E.164" }),
      channel: t.Optional(t.Union([t.Literal("sms"), t.Literal("whatsapp"), t.Literal("rcs"), t.Literal(""), t.Null()], { description: "Default sms" })),
    }),
    detail: { summary: "Change an opt-out's number or channel" },
  })
  .delete("/optouts/:id", ({ ctx, params }) => removeOptout(ctx, params.id), { params: id, detail: { summary: "Remove an opt-out: the number may be sent to again" } })
  .get("/blacklist", ({ ctx, query }) => listDenyList(ctx, query), { query: listQuery, detail: { summary: "Deny list of the account, newest first" } })
  .post("/blacklist", ({ ctx, body }) => addDenyEntry(ctx, body), {
    body: t.Object({
      recipient: t.String({ description: "Any format; stored E.164" }),
      reason: t.Optional(t.Union([t.String({ description: "Up to 255 characters" }), t.Null()])),
    }),
    detail: { summary: "Deny a number: sends to it end as rejected, not charged. Adding one already there answers the existing entry" },
  })
  .put("/blacklist/:id", ({ ctx, params, body }) => updateDenyEntry(ctx, params.id, body), {
    params: id,
    body: t.Object({
      recipient: t.String({ description: "Any format; stored E.164" }),
      reason: t.Optional(t.Union([t.String({ description: "Up to 255 characters" }), t.Null()])),
    }),
    detail: { summary: "Change a deny-list entry's number or reason" },
  })
  .delete("/blacklist/:id", ({ ctx, params }) => removeDenyEntry(ctx, params.id), { params: id, detail: { summary: "Remove a number from the deny list" } });
