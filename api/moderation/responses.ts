/**
 * The success answers of the moderation routes (/words, /urls and their /approvals), as TypeBox
 * schemas for the OpenAPI document (api/http/openapi.ts successResponse). They describe what
 * terms.ts and approvals.ts return.
 */
import { Type } from "@sinclair/typebox";
import { t } from "elysia";
import { Page } from "../lib/page-schema";

/** A plain JSON integer (Elysia's t.Integer also accepts numeric strings). */
const int = Type.Integer;
const date = (description?: string) => t.String({ format: "date-time", ...(description ? { description } : {}) });
const Kind = t.Union([t.Literal("word"), t.Literal("url")], { description: "word: a word or phrase; url: a domain" });

export const Term = t.Object({
  id: t.String({ format: "uuid" }),
  kind: Kind,
  value: t.String({ description: "The word (lowercase, without accents) or the domain (bit.ly)" }),
  note: t.String({ description: "Staff's note (empty when none)" }),
  created_at: date(),
  updated_at: date(),
});

export const TermPage = Page(Term, "Terms under review, by value (A→Z)");
export const TermOne = t.Object({ data: Term });
export const TermSaved = t.Object({
  data: Term,
  created: t.Boolean({ description: "false: the term was already listed (answered as it is, 200)" }),
});
export const TermDeleted = t.Object({ deleted: t.Literal(true) });

export const Approval = t.Object({
  id: t.String({ format: "uuid" }),
  account_id: t.String({ format: "uuid" }),
  account_name: t.String(),
  kind: Kind,
  value: t.String({ description: "The word or domain under review" }),
  status: t.Union([t.Literal("pending"), t.Literal("approved"), t.Literal("rejected")]),
  note: t.String({ description: "The account's justification (empty when none)" }),
  reason: t.String({ description: "Staff's reason of a rejection (empty otherwise)" }),
  decided_at: t.Union([date(), t.Null()]),
  created_at: date(),
  held: int({ description: "Messages still waiting on this review" }),
  total: int({ description: "Messages this review ever held" }),
});

const HeldMessage = t.Object({
  id: t.String({ format: "uuid" }),
  from: t.String({ description: "Sender" }),
  to: t.String({ description: "Recipient (E.164)" }),
  sender: t.String({ deprecated: true, description: "alias of from" }),
  recipient: t.String({ deprecated: true, description: "alias of to" }),
  body: t.String(),
  price: int({ description: "Centavos (0 once rejected and refunded)" }),
  status: t.String({ description: "The message's status (pending while held; queued… once released; rejected)" }),
  created_at: date(),
  hold_state: t.Union([t.Literal("held"), t.Literal("released"), t.Literal("rejected")]),
});

export const ApprovalPage = Page(Approval, "Reviews, pending first, then newest first");
export const ApprovalOne = t.Object({ data: Approval });
export const ApprovalDetail = t.Object({
  data: t.Composite([Approval, t.Object({ messages: t.Array(HeldMessage, { description: "Up to 100 of the messages it holds or held, oldest first" }) })]),
});
export const ApprovalSaved = t.Object({
  data: Approval,
  created: t.Boolean({ description: "false: the account's open request for this term was answered (its note updated when given), 200" }),
});
export const ApprovalApproved = t.Object({ data: Approval, released: int({ description: "Held messages released to be sent now" }) });
export const ApprovalRejected = t.Object({
  data: Approval,
  rejected: int({ description: "Held messages rejected now" }),
  refunded: int({ description: "Centavos given back to the account's balance" }),
});
