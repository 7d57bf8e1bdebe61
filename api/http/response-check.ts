/**
 * The document tells the truth (issue 12 item 13): when API_RESPONSE_CHECK is on (the test stack
 * turns it on), every JSON success answer is checked against the schema its route declares with
 * successResponse/createdResponse (./openapi). An answer that does not match is logged with each
 * difference and answered 500 RESPONSE_SCHEMA, so the suite fails on the route that drifted from
 * its documentation. Off in production: the check costs a walk of every answer.
 */
import { Value } from "@sinclair/typebox/value";
import { Elysia, type AnyElysia, type TSchema } from "elysia";
import { AppError } from "../lib/errors";

type Route = { method: string; path: string; hooks?: { detail?: { responses?: Record<string, { content?: Record<string, { schema?: TSchema }> }> } } };

export const responseCheckOn = () => {
  const v = process.env.API_RESPONSE_CHECK;
  return v ? v === "1" || v === "true" : process.env.NODE_ENV === "test";
};

let declared: Map<string, TSchema> | undefined;

function schemaOf(app: AnyElysia, method: string, path: string, status: number) {
  if (!declared) {
    declared = new Map();
    for (const r of app.routes as unknown as Route[]) {
      for (const [s, res] of Object.entries(r.hooks?.detail?.responses ?? {})) {
        const schema = res?.content?.["application/json"]?.schema;
        if (schema && s.startsWith("2")) declared.set(`${r.method} ${r.path} ${s}`, schema);
      }
    }
  }
  return declared.get(`${method} ${path} ${status}`);
}

/** The differences between an answer and its declared schema (empty when it matches). */
export function schemaMismatches(schema: TSchema, body: unknown) {
  // As the client reads it: Dates become strings, undefined fields disappear.
  const json = body === undefined ? undefined : JSON.parse(JSON.stringify(body));
  return [...Value.Errors(schema, json)].slice(0, 20).map((e) => `${e.path || "/"}: ${e.message}`);
}

/** Installs the check on `app` (before its routes, so it runs for each of them). */
export function responseCheck(app: () => AnyElysia) {
  return new Elysia({ name: "response-check" }).onAfterHandle({ as: "global" }, ({ request, route, set, response }) => {
    if (!responseCheckOn() || response instanceof Response || typeof response !== "object" || response === null) return;
    const status = typeof set.status === "number" ? set.status : 200;
    if (status < 200 || status > 299) return;
    const schema = schemaOf(app(), request.method, route, status);
    if (!schema) return;
    const problems = schemaMismatches(schema, response);
    if (problems.length === 0) return;
    console.error(`RESPONSE_SCHEMA ${request.method} ${route} ${status} does not match its documented schema:\n  ${problems.join("\n  ")}`);
    throw new AppError("RESPONSE_SCHEMA", { params: { route: `${request.method} ${route}`, problems: problems.join("; ") } });
  });
}
