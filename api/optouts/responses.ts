/**
 * The success answers of the moderation routes (opt-outs, their keyword settings, the keywords one
 * by one, the deny list "blacklist"), as TypeBox schemas for the OpenAPI document
 * (api/http/openapi.ts). In tests every JSON answer is checked against them.
 */
import { Type } from "@sinclair/typebox";
import { t } from "elysia";
import { Page } from "../lib/page-schema";
import { EMAIL_OPTOUT_SOURCES, KEYWORD_ACTIONS, OPTOUT_CHANNELS, OPTOUT_SOURCES } from "./schemas";

const int = Type.Integer;
const oneOf = (values: readonly string[], description?: string) =>
  t.Union(
    values.map((v) => t.Literal(v)),
    description ? { description } : {},
  );
const date = () => t.String({ format: "date-time" });

export const Optout = t.Object({
  id: t.String({ format: "uuid" }),
  channel: oneOf(OPTOUT_CHANNELS),
  to: t.String({ description: "The number opted out, E.164" }),
  to_formatted: t.String({ description: "The number as people read it, e.g. (11) 91234-5678" }),
  recipient: t.String({ deprecated: true, description: "Alias of to" }),
  recipient_formatted: t.String({ deprecated: true, description: "Alias of to_formatted" }),
  source: oneOf(OPTOUT_SOURCES, "manual (screen), keyword (an inbound reply), api, import"),
  keyword: t.Union([t.String({ description: "The keyword of the reply that opted it out" }), t.Null()]),
  created_at: date(),
});

export const DenyEntry = t.Object({
  id: t.String({ format: "uuid" }),
  to: t.String({ description: "The number denied, E.164" }),
  to_formatted: t.String({ description: "The number as people read it, e.g. (11) 91234-5678" }),
  recipient: t.String({ deprecated: true, description: "Alias of to" }),
  recipient_formatted: t.String({ deprecated: true, description: "Alias of to_formatted" }),
  reason: t.String({ description: "Empty when none" }),
  created_at: date(),
});

/** A page of opt-outs or deny-list entries: keyset (`cursor`), or with `page` (deprecated) also the count. */
const NumberPage = <T extends Parameters<typeof Page>[0]>(item: T) =>
  t.Composite([
    Page(item),
    t.Object({
      page: t.Optional(int({ deprecated: true, description: "Only without `cursor`: the page asked for (OFFSET paging)" })),
      last_page: t.Optional(int({ deprecated: true, description: "Only without `cursor`: the last page at this `limit`" })),
      total: t.Optional(int({ deprecated: true, description: "Only without `cursor`: entries matching the search" })),
    }),
  ]);

/** An e-mail opt-out (/api/email/optouts): an address instead of a number. */
export const EmailOptout = t.Object({
  id: t.String({ format: "uuid" }),
  channel: t.Literal("email"),
  to: t.String({ description: "The address opted out (lower case)" }),
  to_formatted: t.String({ description: "The same address" }),
  recipient: t.String({ deprecated: true, description: "Alias of to" }),
  recipient_formatted: t.String({ deprecated: true, description: "Alias of to_formatted" }),
  source: oneOf(EMAIL_OPTOUT_SOURCES, "manual (screen), api, unsubscribe (the e-mail's link or mailto), complaint (a spam report through a feedback loop), import"),
  keyword: t.Null(),
  created_at: date(),
});
/** A deny-list address (/api/email/blacklist). */
export const EmailDenyEntry = t.Composite([
  t.Omit(DenyEntry, ["to", "to_formatted"]),
  t.Object({ to: t.String({ description: "The address denied (lower case)" }), to_formatted: t.String({ description: "The same address" }) }),
]);

export const OptoutPage = NumberPage(Optout);
export const EmailOptoutPage = NumberPage(EmailOptout);
export const EmailDenyPage = NumberPage(EmailDenyEntry);
export const EmailOptoutSaved = t.Object({ data: EmailOptout, created: t.Boolean({ description: "false: the address was already opted out (the existing entry)" }) });
export const EmailDenySaved = t.Object({ data: EmailDenyEntry, created: t.Boolean({ description: "false: the address was already on the list (the existing entry)" }) });
export const DenyPage = NumberPage(DenyEntry);

export const OptoutSaved = t.Object({ data: Optout, created: t.Boolean({ description: "false: the number was already opted out (the existing entry)" }) });
export const OptoutOne = t.Object({ data: Optout });
export const DenySaved = t.Object({ data: DenyEntry, created: t.Boolean({ description: "false: the number was already on the list (the existing entry)" }) });
export const DenyOne = t.Object({ data: DenyEntry });

export const Keyword = t.Object({
  id: t.String({ format: "uuid" }),
  keyword: t.String({ description: "One word, uppercase" }),
  action: oneOf(KEYWORD_ACTIONS, "optout: the reply opts the number out; resume: back in"),
  created_at: date(),
  updated_at: date(),
});
export const KeywordList = Page(Keyword, "At most 20 keywords of each action: one page (next_cursor null)");
export const KeywordOne = t.Object({ data: Keyword });
export const KeywordsDeleted = t.Object({ deleted: int(), ids: t.Array(t.String({ format: "uuid" }), { description: "The keywords deleted" }) });

export const OptoutSettings = t.Object({
  data: t.Object({
    keywords: t.Array(t.String(), { description: "Opt-out keywords, in order" }),
    resume_keywords: t.Array(t.String(), { description: "Resume keywords, in order" }),
    updated_at: t.Union([date(), t.Null()], { description: "Last change of any keyword" }),
  }),
});

export const Ok = t.Object({ ok: t.Literal(true) });
