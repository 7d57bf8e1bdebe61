/**
 * The OpenAPI document of the API (GET /api/docs/json), built in one place. @elysiajs/openapi
 * turns each route's TypeBox schemas (params, query, headers, body) and its `detail` into an
 * operation; this module adds what every operation shares, decided from the route itself rather
 * than repeated in every routes file:
 * - who may call it: a route that runs `authenticated` (./auth) needs the bearer and takes the
 *   X-Account-Id header, and may answer 401 and 403; one that runs `pendingAuth` needs the bearer;
 *   any other is public (`security: []`, said explicitly);
 * - its errors, all with the one error body of ./errors (errorBody): 404 where there is a path
 *   parameter, 422 where there is input to validate, 400 where there is a body, 413 everywhere
 *   (the body limit runs before routing), plus what the route declares with `errorResponses(...)`;
 * - a success answer when the route declares none (`successResponse(schema)` declares one).
 * Request bodies: the route's TypeBox `body` (what Elysia validates) is documented as is; a route that
 * takes any object and lets its use-case validate with zod states that zod schema with `zodBody`.
 * `redocly lint` (redocly.yaml, recommended-strict) checks the result in tests/integration/openapi.test.ts.
 */
import { toOpenAPISchema } from "@elysiajs/openapi";
import { t, type AnyElysia, type TSchema } from "elysia";
import type { OpenAPIV3 } from "openapi-types";
import { z } from "zod";
import { resolvePending, resolveSignedIn } from "./auth";

/** The body of every error answer (./errors.ts errorBody). */
export const ErrorBody = t.Object(
  {
    error: t.Object({
      code: t.String({ description: "Stable error code (spec section 8), e.g. VALIDATION, UNAUTHENTICATED, NOT_FOUND" }),
      message: t.String({ description: "The message in the caller's language (Accept-Language: pt-BR, en, es, zh)" }),
      fields: t.Optional(t.Record(t.String(), t.Array(t.String()), { description: "Per field (dotted path), its translated messages" })),
      params: t.Optional(t.Record(t.String(), t.Union([t.String(), t.Number()]), { description: "Values the message was built with" })),
    }),
  },
  { description: "An error: its code and a translated message" },
);

const ERRORS = {
  400: ["BadRequest", "The body could not be read (malformed JSON or form)"],
  401: ["Unauthenticated", "No valid access token (UNAUTHENTICATED, INVALID_TOKEN, INVALID_CREDENTIALS)"],
  402: ["PaymentRequired", "The account's balance does not cover the send (INSUFFICIENT_BALANCE)"],
  403: ["Forbidden", "Not allowed: no permission, second factor not done, or X-Account-Id names an account the person does not belong to (ACCOUNT_INFO_FAILED)"],
  404: ["NotFound", "No such resource in the acting account (NOT_FOUND)"],
  409: ["Conflict", "The resource's state or an Idempotency-Key used for another request does not allow it"],
  413: ["BodyTooLarge", "The body is above the limit (BODY_TOO_LARGE)"],
  415: ["UnsupportedMediaType", "The file's type (read from its content) is not accepted (LIVE_FILE_TYPE)"],
  422: ["Validation", "Invalid input: `error.fields` names each field with its translated messages (VALIDATION)"],
  429: ["TooManyRequests", "Too many attempts; Retry-After says when to try again (TOO_MANY_ATTEMPTS)"],
  503: ["RetryLater", "Not known yet (a provider's status that outran the recording of its send): the provider retries (RETRY_LATER)"],
  502: ["BadGateway", "A provider's API did not answer while we acted for you (PROVIDER_UNAVAILABLE): nothing was kept; try again"],
} as const;
export type ErrorStatus = keyof typeof ERRORS;

const errorRef = (status: ErrorStatus) => ({ $ref: `#/components/responses/${ERRORS[status][0]}` });

/** For a route's `detail.responses`: the error answers it may give besides the shared ones. */
export function errorResponses(...statuses: ErrorStatus[]) {
  return Object.fromEntries(statuses.map((s) => [String(s), errorRef(s)]));
}

/**
 * For a route's `detail.requestBody`, when the generator cannot see the body's media types (a route
 * with its own parser): the same TypeBox schemas the route validates with, by media type.
 */
export function requestBody(content: Record<string, TSchema | object>): OpenAPIV3.RequestBodyObject {
  return { required: true, content: Object.fromEntries(Object.entries(content).map(([type, schema]) => [type, { schema: schema as OpenAPIV3.SchemaObject }])) };
}

/**
 * For a route whose body the use-case validates with zod (the route takes any object): the document
 * shows that same zod schema, as the JSON Schema of what it accepts (z.toJSONSchema, input side).
 */
export function zodBody(schema: z.ZodType): OpenAPIV3.RequestBodyObject {
  const { $schema: _dialect, ...json } = z.toJSONSchema(schema, { io: "input", unrepresentable: "any" });
  return requestBody({ "application/json": json });
}

/**
 * For a route's `detail.responses`: its success answer (a TypeBox schema). In tests the answer is
 * checked against it (./response-check), so what the document says is what the route returns.
 */
export function successResponse(schema: TSchema, description = "OK", status = 200) {
  return { [String(status)]: { description, content: { "application/json": { schema } } } };
}

/** For a create route: 201 with the new resource's URL in Location (./created) and its body. */
export function createdResponse(schema: TSchema, description = "Created") {
  return {
    "201": {
      description,
      headers: { Location: { description: "The URL of the new resource", schema: { type: "string" as const } } },
      content: { "application/json": { schema } },
    },
  };
}

/** For a route whose success answer is not JSON (a file, a page, a stream): its media types. */
export function fileResponse(types: Record<string, string>, description = "The file"): Record<string, OpenAPIV3.ResponseObject> {
  return { "200": { description, content: Object.fromEntries(Object.entries(types).map(([type, desc]) => [type, { schema: { type: "string" as const, description: desc } }])) } };
}

type Operation = {
  security?: unknown[];
  parameters?: Array<{ in?: string; name?: string; $ref?: string }>;
  requestBody?: unknown;
  responses?: Record<string, unknown>;
  [k: string]: unknown;
};
type Hook = { fn?: unknown };
type Route = { method: string; path: string; hooks?: { beforeHandle?: Hook[] | Hook; detail?: { requestBody?: unknown } } };

const runs = (route: Route, fn: unknown) => [route.hooks?.beforeHandle ?? []].flat().some((h) => h === fn || h?.fn === fn);

/** `/api/sms/messages/:id` as the document writes it: `/api/sms/messages/{id}`. */
const docPath = (path: string) => path.replace(/:(\w+)/g, "{$1}");

function complete(op: Operation, route: Route) {
  const responses: Record<string, unknown> = { ...(op.responses ?? {}) };
  const parameters = [...(op.parameters ?? [])];
  // A body the route states itself (its own parser hides the media types from the generator) wins.
  if (route.hooks?.detail?.requestBody) op.requestBody = plain(route.hooks.detail.requestBody);
  if (runs(route, resolveSignedIn)) {
    op.security = [{ bearer: [] }];
    parameters.push({ in: "header", $ref: "#/components/parameters/AccountId" });
    responses["401"] ??= errorRef(401);
    responses["403"] ??= errorRef(403);
  } else if (runs(route, resolvePending)) {
    op.security = [{ bearer: [] }];
    responses["401"] ??= errorRef(401);
  } else {
    // Public, unless the route says how it is called (GET /auth/token: the refresh token as bearer).
    op.security ??= [];
  }
  if (parameters.some((p) => p.in === "path")) responses["404"] ??= errorRef(404);
  if (op.requestBody || parameters.some((p) => p.in === "query" || p.in === "path")) responses["422"] ??= errorRef(422);
  if (op.requestBody) responses["400"] ??= errorRef(400);
  // The body limit (./body-limit) runs before routing: any request may be answered 413.
  responses["413"] ??= errorRef(413);
  if (!Object.keys(responses).some((s) => s.startsWith("2"))) responses["200"] = { description: "OK" };
  op.parameters = parameters.map(({ $ref, ...p }) => ($ref ? { $ref } : p));
  op.responses = responses;
}

const INFO = {
  title: "Mensageria API",
  version: "1.0.0",
  license: { name: "Proprietary", identifier: "LicenseRef-Proprietary" },
  description:
    "JWT bearer API for integrators. Sign in at POST /api/auth/login; refresh at POST /api/auth/token. Send `X-Account-Id` to act in another account you belong to. " +
    "Request bodies are at most 1 MB (JSON_BODY_LIMIT_KB) except files sent as multipart/form-data to the upload routes (CSV imports, SMS recipient files, " +
    "live chat files, WhatsApp send media); a larger body is answered 413 BODY_TOO_LARGE. Every error answers {error: {code, message, fields?}} with the message in the " +
    "caller's language (Accept-Language).",
};

const COMPONENTS = {
  securitySchemes: { bearer: { type: "http", scheme: "bearer", bearerFormat: "JWT", description: "The access token of POST /api/auth/login or /api/auth/token" } },
  parameters: {
    AccountId: {
      name: "X-Account-Id",
      in: "header",
      required: false,
      description: "The account to act in (one the person belongs to; else 403 ACCOUNT_INFO_FAILED). Default: the token's account",
      schema: { type: "string", format: "uuid" },
    },
  },
  responses: Object.fromEntries(
    Object.values(ERRORS).map(([name, description]) => [name, { description, content: { "application/json": { schema: { $ref: "#/components/schemas/Error" } } } }]),
  ),
};

/** Plain JSON (TypeBox schemas carry symbol keys that JSON never shows). */
const plain = <T>(v: T): T => JSON.parse(JSON.stringify(v));

let cached: { routes: number; doc: unknown } | undefined;

/** The whole document for `app` (computed once per set of routes). */
export function apiDocument(app: AnyElysia) {
  const routes = app.routes as unknown as Route[];
  if (cached?.routes === routes.length) return cached.doc;
  const { paths, components } = plain(toOpenAPISchema(app)) as { paths: Record<string, Record<string, Operation>>; components: { schemas?: Record<string, unknown> } };
  for (const route of routes) {
    const op = paths[docPath(route.path)]?.[route.method.toLowerCase()];
    if (op) complete(op, route);
  }
  const doc = {
    openapi: "3.1.0",
    info: INFO,
    servers: [{ url: "/", description: "This host (the web address proxies /api to the API)" }],
    paths,
    components: { ...COMPONENTS, schemas: { ...(components.schemas ?? {}), Error: plain(ErrorBody) } },
  };
  cached = { routes: routes.length, doc };
  return doc;
}
