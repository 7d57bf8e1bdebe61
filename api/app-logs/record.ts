/**
 * The application's error store (ADR 062): the API's 5xx and unexpected errors and the providers'
 * send failures, one row each in app_logs, written by the code that sees them. Cheap and bounded:
 * one INSERT, the message cut to MESSAGE_MAX characters and redacted of anything that looks like a
 * credential, never a message body or a request body; the worker prunes by age and count
 * (`pruneAppLogs`). Never throws into the caller's flow (a failed write is only printed).
 */
import { exec } from "../lib/sql";

import type { AppLogSource } from "./constants";

export const MESSAGE_MAX = 500;
/** Retention: rows older than this many days are deleted… */
export const APP_LOG_RETENTION_DAYS = 30;
/** …and never more than this many rows are kept (the newest). */
export const APP_LOG_MAX_ROWS = 100_000;

export type AppLogEntry = {
  source: AppLogSource;
  /** A short code: the error's class or code (TypeError, UNDELIV, http_422…). */
  code: string;
  message: string;
  accountId?: string | null;
  /** Small facts (method, path, status; channel, provider, message id); never a body or a secret. */
  detail?: Record<string, string | number | boolean | null>;
};

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * What may be kept of an error's text: credentials masked (Bearer tokens, key=value pairs of
 * secret-looking names, URL userinfo, long opaque strings), whitespace folded, cut to MESSAGE_MAX.
 */
export function redact(text: string): string {
  return String(text ?? "")
    .replace(/\b(Bearer|Basic)\s+[^\s"',;]+/gi, "$1 ***")
    .replace(/\b([a-z_-]*(?:password|passwd|secret|token|api[_-]?key|authorization|auth)[a-z_-]*)(["']?\s*[:=]\s*["']?)[^\s"',;&]+/gi, "$1$2***")
    .replace(/\/\/[^/\s:@]+:[^/\s@]+@/g, "//***@")
    .replace(/[A-Za-z0-9+/_=-]{40,}/g, "***")
    .replace(/\s+/g, " ")
    .trim()
    .slice(0, MESSAGE_MAX);
}

/** The path of a request without its query string (which may carry a token), cut to 200 characters. */
export function pathOnly(url: string): string {
  try {
    return new URL(url, "http://x").pathname.slice(0, 200);
  } catch {
    return "";
  }
}

export async function recordAppLog(entry: AppLogEntry): Promise<void> {
  try {
    const detail = Object.fromEntries(
      Object.entries(entry.detail ?? {})
        .filter(([, v]) => v !== undefined)
        .map(([k, v]) => [k, typeof v === "string" ? redact(v).slice(0, 200) : v]),
    );
    await exec(`INSERT INTO app_logs (source, code, message, account_id, detail) VALUES ($1, $2, $3, $4, $5::jsonb)`, [
      entry.source,
      redact(entry.code || "ERROR").slice(0, 100) || "ERROR",
      redact(entry.message),
      entry.accountId && UUID.test(entry.accountId) ? entry.accountId : null,
      JSON.stringify(detail),
    ]);
  } catch (e) {
    console.error(`app log not written (${entry.source} ${entry.code}): ${(e as Error).message}`);
  }
}

/** The retention rule: older than APP_LOG_RETENTION_DAYS, or beyond the APP_LOG_MAX_ROWS newest. Answers how many went. */
export async function pruneAppLogs(days = APP_LOG_RETENTION_DAYS, maxRows = APP_LOG_MAX_ROWS): Promise<number> {
  const old = await exec(`DELETE FROM app_logs WHERE created_at < now() - make_interval(days => $1)`, [days]);
  const over = await exec(`DELETE FROM app_logs WHERE id < (SELECT id FROM app_logs ORDER BY id DESC OFFSET $1 LIMIT 1)`, [maxRows - 1]);
  return old + over;
}
