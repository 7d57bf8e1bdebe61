/** A small JSON client for the API process (bearer tokens, Accept-Language, X-Forwarded-For). */
import { inject } from "vitest";
import { lastMailTo, linkIn, uniqueEmail } from "./db";
import { given, makeShortCode } from "./factories";

export const NEW_PASSWORD = "Rv8#Tq2!Lm5@Wx";

export type ApiOpts = {
  method?: string;
  body?: unknown;
  token?: string | null;
  lang?: string;
  ip?: string;
  account?: string;
  host?: string;
  /** Any other request headers (Idempotency-Key…). */
  headers?: Record<string, string>;
};

export async function api<T = any>(path: string, opts: ApiOpts = {}): Promise<{ status: number; body: T; headers: Headers }> {
  const headers: Record<string, string> = { ...opts.headers };
  if (opts.body !== undefined) headers["Content-Type"] = "application/json";
  if (opts.token) headers.Authorization = `Bearer ${opts.token}`;
  if (opts.lang) headers["Accept-Language"] = opts.lang;
  if (opts.ip) headers["X-Forwarded-For"] = opts.ip;
  if (opts.account) headers["X-Account-Id"] = opts.account;
  if (opts.host) headers["X-Forwarded-Host"] = opts.host;
  const res = await fetch(new URL(path, inject("apiUrl")), {
    method: opts.method ?? (opts.body === undefined ? "GET" : "POST"),
    headers,
    body: opts.body === undefined ? undefined : JSON.stringify(opts.body),
  });
  const text = await res.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {}
  return { status: res.status, body: body as T, headers: res.headers };
}

/** A random documentation-range IP, so rate-limit counters of one test never meet another's. */
export function randomIp() {
  const n = () => Math.floor(Math.random() * 254) + 1;
  return `10.${n()}.${n()}.${n()}`;
}

export type Person = { email: string; password: string; userId: string; accountId: string; company: string };

/** Register a person and company through the API; `verify` follows the link from the e-mail. */
export async function registerPerson(tag: string, opts: { verify?: boolean } = {}): Promise<Person> {
  const email = uniqueEmail(tag);
  const company = `${tag} ${email.split("@")[0].split(".")[1]}`;
  const res = await api("/api/auth/register", {
    body: { firstName: "Teste", lastName: tag, email, password: NEW_PASSWORD, confirmPassword: NEW_PASSWORD, companyName: company, acceptTerms: true },
  });
  if (res.status !== 201) throw new Error(`register ${email}: ${res.status} ${JSON.stringify(res.body)}`);
  if (opts.verify !== false) {
    const path = linkIn(await lastMailTo(email), "/email-verify/");
    const token = path.split("/").pop()!;
    const v = await api(`/api/auth/verify-email/${token}`, { method: "POST" });
    if (v.status !== 200) throw new Error(`verify ${email}: ${v.status} ${JSON.stringify(v.body)}`);
  }
  return { email, password: NEW_PASSWORD, userId: res.body.user.id, accountId: res.body.account.id, company };
}

export async function login(email: string, password: string, ip = randomIp()) {
  const res = await api<{ token: string; refresh_token: string | null }>("/api/auth/login", { body: { email, password }, ip });
  if (res.status !== 200) throw new Error(`login ${email}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

export { giveOmni } from "./factories";

/**
 * Assign the account a new short code (8 random digits, unique on the platform) and answer its
 * number: the sender a test sends from, since a send may only use the account's own short codes
 * (api/sms/senders.ts).
 */
export async function giveShortCode(accountId: string, opts: { nickname?: string; status?: "active" | "inactive" } = {}): Promise<string> {
  return (await makeShortCode(accountId, { nickname: "", deliverability: ["Vivo", "Claro", "TIM"], status: "active", ...given(opts) })).number;
}
