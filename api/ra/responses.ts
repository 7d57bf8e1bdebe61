/**
 * The success answers of the Reclame Aqui routes (./routes), as TypeBox schemas for the OpenAPI
 * document (api/http/openapi.ts successResponse); in tests each answer is checked against its schema.
 */
import { Type } from "@sinclair/typebox";
import { t } from "elysia";
import { Page } from "../lib/page-schema";

const nullable = <T extends Parameters<typeof t.Union>[0][number]>(s: T) => t.Union([s, t.Null()]);
const at = t.String({ format: "date-time" });
const status = t.Union([t.Literal("unanswered"), t.Literal("answered"), t.Literal("replied"), t.Literal("evaluated")], {
  description: "unanswered; answered (the company answered publicly); replied (the consumer answered back); evaluated (the consumer's final evaluation)",
});

export const Connection = t.Object({
  company_id: t.String({ description: "The company's id on Reclame Aqui" }),
  client_id: t.String(),
  status: t.Union([t.Literal("connected"), t.Literal("failing")], { description: "failing: the last sync failed (last_error)" }),
  last_error: nullable(t.String({ description: "The translation key of the last sync's failure" })),
  last_sync_at: nullable(at),
  connected_at: at,
});
export const ConnectionAnswer = t.Object({ data: nullable(Connection) });

export const SyncResult = t.Object({
  imported: Type.Integer({ description: "Complaints new to the account" }),
  updated: Type.Integer({ description: "Complaints that changed on Reclame Aqui since the last sync" }),
  last_sync_at: at,
});

const complaintFields = {
  id: t.String(),
  ra_id: t.String({ description: "The complaint's id on Reclame Aqui" }),
  title: t.String(),
  consumer_name: nullable(t.String()),
  status,
  created_at: at,
  updated_at: t.String({ format: "date-time", description: "Last changed on Reclame Aqui" }),
  first_answer_at: nullable(at),
  score: nullable(Type.Integer({ minimum: 0, maximum: 10, description: "The consumer's score once evaluated" })),
  resolved: nullable(t.Boolean()),
  would_return: nullable(t.Boolean({ description: "Would do business again (voltaria a fazer negócio)" })),
};
export const Complaint = t.Object(complaintFields);
export const ComplaintPage = Page(Complaint);

export const Interaction = t.Object({
  id: t.String(),
  ra_id: t.String(),
  author: t.Union([t.Literal("company"), t.Literal("consumer")]),
  visibility: t.Union([t.Literal("public"), t.Literal("private")]),
  body: t.String(),
  created_at: at,
});
export const ComplaintDetail = t.Object({
  ...complaintFields,
  description: t.String(),
  consumer_email: nullable(t.String()),
  consumer_phone: nullable(t.String()),
  interactions: t.Array(Interaction),
});

const pct = (d: string) => nullable(t.Number({ description: `${d}, 0 to 100 (one decimal); null without a base` }));
const figures = {
  total: Type.Integer(),
  answered: Type.Integer({ description: "With a public answer of the company" }),
  answered_pct: pct("Answered of total"),
  avg_answer_seconds: nullable(t.Number({ description: "Mean time to the first public answer" })),
  evaluated: Type.Integer(),
  avg_score: nullable(t.Number({ description: "The consumers' mean score, 0 to 10" })),
  would_return_pct: pct("Would do business again, of evaluated"),
  solution_pct: pct("Resolved, of evaluated (solution index)"),
};
export const Report = t.Object({
  overall: t.Object(figures),
  months: t.Array(t.Object({ month: t.String({ description: "YYYY-MM of the complaint, São Paulo time" }), ...figures })),
});
