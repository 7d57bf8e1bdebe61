/** A browser-like HTTP client for the web process: cookie jar, CSRF field, manual redirects. */
import http from "node:http";
import { inject } from "vitest";
import { parseEnv } from "../../api/lib/env";
import { CSRF_COOKIE, SESSION_COOKIE, csrfTokenFor } from "../../remix/app/lib/csrf.server";
import { uniqueEmail } from "./db";
import { type Role, setAccount, setMember, setUser } from "./factories";

/** The web's session secret, read without env(): that caches process.env, which some tests set later. */
let sessionSecret: string | undefined;
const secret = () => (sessionSecret ??= parseEnv(process.env).SESSION_SECRET);

/** fetch() cannot set Host; this does (for whitelabel and unsubscribe hosts). */
function rawRequest(url: URL, init: { method?: string; headers: Record<string, string>; body?: string }): Promise<Response> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method: init.method ?? "GET", headers: init.headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c) => chunks.push(c));
      res.on("end", () => {
        const headers = new Headers();
        for (const [k, v] of Object.entries(res.headers)) for (const one of ([] as string[]).concat(v ?? [])) headers.append(k, one);
        const status = res.statusCode ?? 500;
        resolve(new Response([204, 304].includes(status) ? null : Buffer.concat(chunks), { status, headers }));
      });
    });
    req.on("error", reject);
    if (init.body) req.write(init.body);
    req.end();
  });
}

export class WebClient {
  readonly base: string;
  readonly cookies = new Map<string, string>();
  constructor(
    base = inject("webUrl"),
    readonly headers: Record<string, string> = {},
  ) {
    this.base = base;
  }

  private store(res: Response) {
    for (const line of res.headers.getSetCookie()) {
      const [pair, ...attrs] = line.split(";");
      const i = pair.indexOf("=");
      const name = pair.slice(0, i).trim();
      const value = pair.slice(i + 1).trim();
      const expired = attrs.some((a) => /max-age=0|expires=thu, 01 jan 1970/i.test(a.trim()));
      if (expired || value === "") this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }

  cookieHeader() {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join("; ");
  }

  async request(path: string, init: RequestInit = {}) {
    const headers = { ...this.headers, ...(init.headers as Record<string, string>), Cookie: this.cookieHeader() };
    const res = Object.keys(headers).some((h) => h.toLowerCase() === "host")
      ? await rawRequest(new URL(path, this.base), { method: init.method, headers, body: init.body?.toString() })
      : await fetch(new URL(path, this.base), { ...init, redirect: "manual", headers });
    this.store(res);
    return res;
  }

  get(path: string) {
    return this.request(path);
  }

  /** GET and return the HTML (the first GET also obtains the CSRF cookie). */
  async page(path: string) {
    const res = await this.get(path);
    return { res, html: await res.text() };
  }

  /** The form token the server renders for this jar's browser and session cookies (remix/app/lib/csrf.server.ts). */
  get csrf() {
    const cookie = (name: string) => (this.cookies.has(name) ? decodeURIComponent(this.cookies.get(name)!) : null);
    return csrfTokenFor(cookie(CSRF_COOKIE), cookie(SESSION_COOKIE), secret());
  }

  /** POST a form like a browser with JavaScript off (CSRF field included unless given). */
  async post(path: string, fields: Record<string, string>, opts: { csrf?: string | null } = {}) {
    if (!this.cookies.has("__csrf")) await this.get("/health").then(() => this.get("/login"));
    const body = new URLSearchParams(fields);
    const csrf = opts.csrf === undefined ? this.csrf : opts.csrf;
    if (csrf !== null) body.set("csrf", csrf);
    return this.request(path, { method: "POST", body, headers: { "Content-Type": "application/x-www-form-urlencoded" } });
  }

  /** POST multipart/form-data (file uploads) like a browser: the CSRF field first (unless null), then `form` in order. */
  async postMultipart(path: string, form: FormData, opts: { csrf?: string | null } = {}) {
    if (!this.cookies.has("__csrf")) await this.get("/health").then(() => this.get("/login"));
    const body = new FormData();
    const csrf = opts.csrf === undefined ? this.csrf : opts.csrf;
    if (csrf !== null) body.append("csrf", csrf);
    for (const [name, value] of form) body.append(name, value);
    return this.request(path, { method: "POST", body });
  }
}

export const DEMO_PASSWORD = "Demo!Mensa#2026";

export async function signIn(email: string, password = DEMO_PASSWORD) {
  const c = new WebClient();
  await c.get("/login");
  const res = await c.post("/login", { email, password });
  if (res.status !== 302) throw new Error(`sign-in of ${email} answered ${res.status}`);
  return c;
}

/** A strong password the registration forms take. */
export const STRONG_PASSWORD = "Forte!Chave#2026x";

/** Registers through the web form at `path` (/register, /experience), as a browser without JavaScript: Ana Souza, pt-BR. */
export async function registerOnWeb(c = new WebClient(), opts: { path?: string; tag?: string; company?: string } = {}) {
  const path = opts.path ?? "/register";
  const email = uniqueEmail(opts.tag ?? "reg");
  await c.get(path);
  const res = await c.post(path, {
    firstName: "Ana",
    lastName: "Souza",
    companyName: opts.company ?? "Padaria Boa",
    email,
    mobile: "",
    password: STRONG_PASSWORD,
    confirmPassword: STRONG_PASSWORD,
    acceptTerms: "on",
    locale: "pt-BR",
  });
  return { c, email, res };
}

export type WebCustomer = { email: string; userId: string; accountId: string; client: WebClient };

/**
 * A new customer signed in to the web: registered through the API (password DEMO_PASSWORD,
 * first name Rita, pt-BR), the e-mail confirmed directly, then optionally another role in the
 * account or a balance. `company` prefixes the company's name (made unique).
 */
export async function signedInCustomer(tag: string, opts: { role?: Role; balance?: number; lastName?: string; company?: string } = {}): Promise<WebCustomer> {
  const email = uniqueEmail(tag);
  const res = await fetch(new URL("/api/auth/register", inject("apiUrl")), {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({
      firstName: "Rita",
      lastName: opts.lastName ?? "Nova",
      email,
      password: DEMO_PASSWORD,
      confirmPassword: DEMO_PASSWORD,
      companyName: `${opts.company ?? "Empresa"} ${tag} ${Date.now().toString(36)}`,
      acceptTerms: true,
      locale: "pt-BR",
    }),
  });
  if (res.status !== 201) throw new Error(`register ${email}: ${res.status} ${await res.text()}`);
  const body = (await res.json()) as { user: { id: string }; account: { id: string } };
  await setUser(body.user.id, { verified: true });
  if (opts.role && opts.role !== "owner") await setMember(body.account.id, body.user.id, { role: opts.role });
  if (opts.balance !== undefined) await setAccount(body.account.id, { balance: opts.balance });
  return { email, userId: body.user.id, accountId: body.account.id, client: await signIn(email) };
}

export const location = (res: Response) => {
  const l = res.headers.get("Location");
  return l ? new URL(l, "http://x").pathname + new URL(l, "http://x").search : null;
};
