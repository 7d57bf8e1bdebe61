/**
 * The one place that reads process.env. Validated once at boot: a bad or missing variable
 * stops the process with a sentence naming it. Only `publicEnv` may reach the browser.
 */
import { z } from "zod";
import { DEFAULT_SIMULATOR_MIX, parseMix } from "../simulator/outcome";

const port = z.coerce.number().int().min(1).max(65535);
const optionalText = z
  .string()
  .trim()
  .optional()
  .transform((v) => (v ? v : undefined));

const schema = z
  .object({
    NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
    DATABASE_URL: z.string().url().default("postgres://postgres@127.0.0.1:5432/mensageria"),
    REDIS_URL: z.string().url().default("redis://127.0.0.1:6379/0"),
    /** Prefix for every Redis key/stream, so test runs never see each other's data. */
    REDIS_PREFIX: z.string().default(""),
    WEB_PORT: port.default(3000),
    API_PORT: port.default(3001),
    REALTIME_PORT: port.default(3002),
    WEB_HOST: z.string().default("0.0.0.0"),
    API_URL: z.string().url().optional(),
    REALTIME_URL: z.string().url().optional(),
    /** Public URL people open; used in e-mail links. */
    APP_URL: z.string().url().optional(),
    SESSION_SECRET: z.string().min(32).optional(),
    JWT_SECRET: z.string().min(32).optional(),
    JWT_ACCESS_TTL: z.coerce.number().int().positive().default(900),
    JWT_REFRESH_TTL: z.coerce.number().int().positive().default(60 * 60 * 24 * 30),
    /** smtp://user:pass@host:port — with none, mail lands in the local outbox (/dev/mailbox). */
    SMTP_URL: optionalText,
    MAIL_FROM: z.string().default("Mensageria <no-reply@mensageria.local>"),
    /** How often the worker re-announces e-mails still queued (lost stream entries). */
    MAIL_SWEEP_SECONDS: z.coerce.number().int().positive().default(15),
    GOOGLE_CLIENT_ID: optionalText,
    GOOGLE_CLIENT_SECRET: optionalText,
    FACEBOOK_CLIENT_ID: optionalText,
    FACEBOOK_CLIENT_SECRET: optionalText,
    /** Provider endpoints (defaults are the real ones; overridable for a loopback test peer). */
    GOOGLE_AUTH_URL: z.string().url().default("https://accounts.google.com/o/oauth2/v2/auth"),
    GOOGLE_TOKEN_URL: z.string().url().default("https://oauth2.googleapis.com/token"),
    GOOGLE_USERINFO_URL: z.string().url().default("https://openidconnect.googleapis.com/v1/userinfo"),
    FACEBOOK_AUTH_URL: z.string().url().default("https://www.facebook.com/v19.0/dialog/oauth"),
    FACEBOOK_TOKEN_URL: z.string().url().default("https://graph.facebook.com/v19.0/oauth/access_token"),
    FACEBOOK_USERINFO_URL: z.string().url().default("https://graph.facebook.com/me?fields=id,first_name,last_name,email"),
    /** Live chat channels' provider APIs (ADR 017; tests point them at a loopback peer). */
    TELEGRAM_API_URL: z.string().url().default("https://api.telegram.org"),
    GRAPH_API_URL: z.string().url().default("https://graph.facebook.com/v19.0"),
    GBM_API_URL: z.string().url().default("https://businessmessages.googleapis.com"),
    /** How often the worker re-announces stuck imports and removes abandoned uploads. */
    IMPORT_SWEEP_SECONDS: z.coerce.number().int().positive().default(60),
    /** How often the worker removes Idempotency-Keys older than 24 h. */
    IDEMPOTENCY_SWEEP_SECONDS: z.coerce.number().int().positive().default(3600),
    /** Where uploaded files (CSV imports) and generated reports are kept; shared by web, api and worker. */
    UPLOAD_DIR: z.string().default("var/uploads"),
    /** Largest request body accepted (uploads), in megabytes. */
    MAX_UPLOAD_MB: z.coerce.number().int().positive().default(2048),
    /** Host name that serves only the unsubscribe page at /. */
    UNSUBSCRIBE_HOST: z.string().default("unsubscribe.localhost"),
    LOGIN_MAX_FAILS_PER_EMAIL: z.coerce.number().int().positive().default(5),
    LOGIN_MAX_FAILS_PER_IP: z.coerce.number().int().positive().default(30),
    LOGIN_FAIL_WINDOW_SECONDS: z.coerce.number().int().positive().default(900),
    /** Shared secret of the built-in SMS simulator's signed delivery receipts (Standard Webhooks; "whsec_<base64>" or plain text). */
    SIMULATOR_WEBHOOK_SECRET: z.string().min(24).optional(),
    /** The simulator process (a provider-like HTTP peer, the default provider without credentials). */
    SIMULATOR_PORT: port.default(3003),
    SIMULATOR_URL: z.string().url().optional(),
    /** Bearer key the simulator requires on its API (dev default; required in production). */
    SIMULATOR_API_KEY: z.string().min(16).optional(),
    /** Where the simulator posts its signed receipts (default: our API's provider webhook). */
    SIMULATOR_WEBHOOK_URL: z.string().url().optional(),
    /** Delay between a submit and its delivery receipt. */
    SIMULATOR_DELAY_MS: z.coerce.number().int().min(0).max(600_000).default(300),
    /** Weighted final statuses, chosen per message by hashing its reference. */
    SIMULATOR_MIX: z
      .string()
      .default(DEFAULT_SIMULATOR_MIX)
      .superRefine((v, ctx) => {
        try {
          parseMix(v);
        } catch (e) {
          ctx.addIssue({ code: "custom", message: (e as Error).message });
        }
      }),
    /** Dispatch: deliveries of a stream entry before it goes to the dead-letter stream (the message then fails). */
    DISPATCH_MAX_ATTEMPTS: z.coerce.number().int().min(1).max(100).default(5),
    /** Dispatch: an entry pending this long (crashed worker, failed attempt) is retried. */
    /** How often the worker marks live rooms idle (visitor silent for the account's idle_minutes). */
    LIVE_IDLE_SWEEP_MS: z.coerce.number().int().min(100).default(30_000),
    /** How often each realtime connection re-checks its person is still allowed (the backstop of revocation events). */
    REALTIME_REVALIDATE_SECONDS: z.coerce.number().int().positive().default(30),
    DISPATCH_RETRY_IDLE_MS: z.coerce.number().int().min(100).default(15_000),
    /** How often the worker releases due scheduled messages (api/sms/release.ts). */
    SCHEDULE_SWEEP_MS: z.coerce.number().int().min(10).default(1000),
    /** Our SMPP server for the accounts' SMPP users (api/smpp/server.ts). */
    SMPP_PORT: port.default(2775),
    SMPP_HOST: z.string().default("0.0.0.0"),
    /** How often the outbox relay looks for unpublished rows. */
    OUTBOX_POLL_MS: z.coerce.number().int().min(10).default(200),
    /**
     * Per-route submit rates, messages per second, optionally with a burst: "T1:200,T2:100:20".
     * A route not listed is not limited by us (the provider's throttling still applies).
     */
    SMS_ROUTE_RATES: z
      .string()
      .default("")
      .superRefine((v, ctx) => {
        try {
          parseRouteRates(v);
        } catch (e) {
          ctx.addIssue({ code: "custom", message: (e as Error).message });
        }
      }),
    /** Dispatch: stream entries handled at once per worker (claims, submits and records in flight). */
    DISPATCH_CONCURRENCY: z.coerce.number().int().min(1).max(1000).default(32),
    /** Dispatch: a message queued/sending this long without a stream entry is published again (lost entries, Redis restart). */
    DISPATCH_RECOVER_SECONDS: z.coerce.number().int().min(1).default(60),
    /** How often the worker looks for lost entries and finished campaigns. */
    DISPATCH_SWEEP_SECONDS: z.coerce.number().int().min(1).default(10),
    /** Simulator: receipt posts in flight at once (the rest wait their turn). */
    SIMULATOR_RECEIPT_CONCURRENCY: z.coerce.number().int().min(1).max(10_000).default(32),
    SIMULATOR_RECEIPT_BATCH: z.coerce.number().int().min(1).max(1000).default(100),
    /** Simulator: answer 429 with Retry-After above this many submits per second (0 = never throttle). */
    SIMULATOR_MAX_RPS: z.coerce.number().int().min(0).default(0),
    /** Customer webhooks: may endpoints be private, loopback or link-local addresses? Never in production; default yes elsewhere. */
    WEBHOOK_ALLOW_PRIVATE_URLS: z.enum(["true", "false"]).optional(),
    /** Customer webhooks: multiplies the retry schedule (5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h); tests use e.g. 0.001. */
    WEBHOOK_RETRY_SCALE: z.coerce.number().positive().max(10).default(1),
    /** Customer webhooks: how often the worker looks for due deliveries. */
    WEBHOOK_SWEEP_MS: z.coerce.number().int().min(10).default(1000),
    /** Customer webhooks: a POST not answered within this is a failed attempt. */
    WEBHOOK_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(10_000),
  })
  .superRefine((env, ctx) => {
    if (env.NODE_ENV === "production") {
      for (const key of ["SESSION_SECRET", "JWT_SECRET", "APP_URL", "SIMULATOR_WEBHOOK_SECRET", "SIMULATOR_API_KEY"] as const) {
        if (!env[key]) ctx.addIssue({ code: "custom", path: [key], message: "is required in production" });
      }
      if (env.WEBHOOK_ALLOW_PRIVATE_URLS === "true") ctx.addIssue({ code: "custom", path: ["WEBHOOK_ALLOW_PRIVATE_URLS"], message: "cannot be true in production" });
    }
  });

export type Env = z.infer<typeof schema> & {
  SESSION_SECRET: string;
  JWT_SECRET: string;
  APP_URL: string;
  API_URL: string;
  REALTIME_URL: string;
  SIMULATOR_WEBHOOK_SECRET: string;
  SIMULATOR_URL: string;
  SIMULATOR_API_KEY: string;
  SIMULATOR_WEBHOOK_URL: string;
};

/** Development/test value of SIMULATOR_WEBHOOK_SECRET (production requires a real one). */
export const DEV_SIMULATOR_WEBHOOK_SECRET = "development-only-simulator-webhook-secret";
/** Development/test value of SIMULATOR_API_KEY (production requires a real one). */
export const DEV_SIMULATOR_API_KEY = "development-only-simulator-api-key";

export function parseEnv(source: Record<string, string | undefined>): Env {
  const result = schema.safeParse(source);
  if (!result.success) {
    const lines = result.error.issues.map((i) => `${i.path.join(".") || "env"}: ${i.message}`);
    throw new Error(`Invalid configuration — fix these environment variables:\n  ${lines.join("\n  ")}`);
  }
  const e = result.data;
  // Development and test defaults: fixed, clearly non-secret values (production requires real ones).
  const devSecret = "development-only-secret-do-not-use-in-production";
  const apiUrl = e.API_URL ?? `http://127.0.0.1:${e.API_PORT}`;
  return {
    ...e,
    SESSION_SECRET: e.SESSION_SECRET ?? devSecret,
    JWT_SECRET: e.JWT_SECRET ?? devSecret + "-jwt",
    APP_URL: e.APP_URL ?? `http://localhost:${e.WEB_PORT}`,
    API_URL: apiUrl,
    REALTIME_URL: e.REALTIME_URL ?? `http://127.0.0.1:${e.REALTIME_PORT}`,
    SIMULATOR_WEBHOOK_SECRET: e.SIMULATOR_WEBHOOK_SECRET ?? DEV_SIMULATOR_WEBHOOK_SECRET,
    SIMULATOR_URL: e.SIMULATOR_URL ?? `http://127.0.0.1:${e.SIMULATOR_PORT}`,
    SIMULATOR_API_KEY: e.SIMULATOR_API_KEY ?? DEV_SIMULATOR_API_KEY,
    SIMULATOR_WEBHOOK_URL: e.SIMULATOR_WEBHOOK_URL ?? `${apiUrl.replace(/\/+$/, "")}/api/webhooks/providers/simulator`,
  };
}

export type RouteRate = { rate: number; burst: number };

/** "T1:200,T2:100:20" -> {T1: {rate: 200, burst: 10}, T2: {rate: 100, burst: 20}}; default burst = rate / 20 (50 ms worth), at least 1. */
export function parseRouteRates(text: string): Record<string, RouteRate> {
  const out: Record<string, RouteRate> = {};
  for (const part of text.split(",").map((p) => p.trim()).filter(Boolean)) {
    const m = /^([A-Za-z0-9_-]{1,40})\s*:\s*(\d+(?:\.\d+)?)(?:\s*:\s*(\d+))?$/.exec(part);
    if (!m || Number(m[2]) <= 0) throw new Error(`"${part}" is not <route>:<messages per second>[:<burst>]`);
    const rate = Number(m[2]);
    out[m[1]] = { rate, burst: m[3] ? Math.max(1, Number(m[3])) : Math.max(1, Math.ceil(rate / 20)) };
  }
  return out;
}

let cached: Env | undefined;
export function env(): Env {
  if (!cached) {
    try {
      cached = parseEnv(process.env);
    } catch (err) {
      console.error((err as Error).message);
      process.exit(1);
    }
  }
  return cached;
}

export function publicEnv() {
  const e = env();
  return {
    googleEnabled: Boolean(e.GOOGLE_CLIENT_ID && e.GOOGLE_CLIENT_SECRET),
    facebookEnabled: Boolean(e.FACEBOOK_CLIENT_ID && e.FACEBOOK_CLIENT_SECRET),
    production: e.NODE_ENV === "production",
  };
}
