/**
 * Moderation API (spec section 7): opt-outs with their keyword settings, and the deny list under
 * the spec's name "blacklist". Thin: the use-cases validate, check permission (/sms/optouts,
 * /sms/denylist) and scope by account. /optouts/settings comes before /optouts/:id.
 */
import { Elysia, t } from "elysia";
import { authenticated } from "../http/auth";
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
const keywords = t.Union([t.Array(t.String()), t.String()], { description: "1 to 20 single words; stored uppercase, repeated words once" });

export const optoutRoutes = new Elysia({ tags: ["moderation"], detail: { security: bearer } })
  .use(authenticated)
  .get("/optouts/settings", ({ ctx }) => getOptoutSettings(ctx), { detail: { summary: "Opt-out and resume keywords of the account (defaults when never saved)" } })
  .put("/optouts/settings", ({ ctx, body }) => saveOptoutSettings(ctx, body), {
    body: t.Object({ keywords, resume_keywords: keywords }),
    detail: { summary: "Replace the opt-out keywords (SAIR, PARAR…) and the resume keywords (VOLTAR, START); a word cannot be in both" },
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
