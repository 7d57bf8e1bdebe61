/** The one mapping of errors to HTTP answers: AppError -> its status and a translated message. */
import { Elysia, type ValidationError } from "elysia";
import { AppError, TWO_FACTOR_NOT_CHECKED, isAppError, type FieldErrors } from "../lib/errors";
import { fromAcceptLanguage, translate } from "../lib/i18n";
import { pathOnly, recordAppLog } from "../app-logs/record";

export function errorBody(e: AppError, acceptLanguage: string | null) {
  const locale = fromAcceptLanguage(acceptLanguage);
  const code = e.code === "TWO_FACTOR_NOT_CHECKED" ? TWO_FACTOR_NOT_CHECKED : e.code;
  const fields = e.fields
    ? Object.fromEntries(
        Object.entries(e.fields).map(([k, v]) => [
          k,
          v.map((m) => {
            const [key, arg] = m.split("::");
            const [ns, ...rest] = key.split(".");
            return translate(locale, `${ns}:${rest.join(".")}`, { 0: arg });
          }),
        ]),
      )
    : undefined;
  // A plan refusal names the feature that unlocks it, in the reader's language (plans:features.<feature>).
  const params = e.code === "PLAN_REQUIRED" && e.params?.feature ? { ...e.params, featureName: translate(locale, `plans:features.${e.params.feature}`) } : (e.params ?? {});
  const message = translate(locale, e.code === "PLAN_REQUIRED" && e.params?.feature ? "errors:PLAN_REQUIRED_feature" : `errors:${e.code}`, params);
  return { error: { code, message, fields, params: e.params } };
}

/** Field errors from a route schema failure (missing -> validation.required, else validation.invalid). */
function schemaFields(error: Readonly<ValidationError>): FieldErrors | undefined {
  let issues: Array<{ path?: string; value?: unknown }> = [];
  try {
    issues = error.all as Array<{ path?: string; value?: unknown }>;
  } catch {
    return undefined;
  }
  const fields: FieldErrors = {};
  for (const issue of issues) {
    const name = (issue.path ?? "").replace(/^\//, "").replace(/\//g, ".") || error.type || "form";
    const key = issue.value === undefined || issue.value === "" ? "validation.required" : "validation.invalid";
    const list = (fields[name] ??= []);
    if (!list.includes(key)) list.push(key);
  }
  return Object.keys(fields).length ? fields : undefined;
}

/**
 * Every 401 says how to authenticate (RFC 9110 §11.6.1, RFC 6750 §3): a bearer token; when one was
 * presented and refused, error="invalid_token" (expired, revoked, forged, or the wrong kind).
 */
export function wwwAuthenticate(request: Request): string {
  const presented = (request.headers.get("Authorization") ?? "").startsWith("Bearer ");
  return `Bearer realm="mensageria"${presented ? ', error="invalid_token"' : ""}`;
}

/** The account of the signed-in caller, when the error happened after `authenticated` derived it. */
function accountOf(context: object): string | null {
  const ctx = (context as { ctx?: { actor?: { accountId?: unknown } } }).ctx;
  return typeof ctx?.actor?.accountId === "string" ? ctx.actor.accountId : null;
}

/** An application error kept for /admin/logs (ADR 062): the method, path (no query) and status, never a body. */
function logAppError(context: object, request: Request, status: number, code: string, message: string) {
  void recordAppLog({ source: "api", code, message, accountId: accountOf(context), detail: { method: request.method, path: pathOnly(request.url), status } });
}

export const errors = new Elysia({ name: "errors" }).onError({ as: "global" }, (context) => {
  const { error, code, request, set } = context;
  const lang = request.headers.get("Accept-Language");
  if (isAppError(error)) {
    set.status = error.status;
    if (error.status >= 500) logAppError(context, request, error.status, error.code, error.message);
    if (error.code === "TOO_MANY_ATTEMPTS" && error.params?.minutes) set.headers["Retry-After"] = String(Number(error.params.minutes) * 60);
    if (error.status === 401) set.headers["WWW-Authenticate"] = wwwAuthenticate(request);
    return errorBody(error, lang);
  }
  if (code === "VALIDATION") {
    set.status = 422;
    return errorBody(new AppError("VALIDATION", { fields: schemaFields(error) }), lang);
  }
  if (code === "NOT_FOUND") {
    set.status = 404;
    return errorBody(new AppError("NOT_FOUND"), lang);
  }
  if (code === "PARSE") {
    set.status = 400;
    return errorBody(new AppError("VALIDATION"), lang);
  }
  console.error(error);
  set.status = 500;
  const e = error as { name?: unknown; code?: unknown; message?: unknown };
  logAppError(context, request, 500, typeof e?.name === "string" && e.name !== "Error" ? e.name : typeof code === "string" ? code : "ERROR", String(e?.message ?? error));
  return errorBody(new AppError("INTERNAL"), lang);
});
