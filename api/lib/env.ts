/**
 * The one place that reads process.env. Validated once at boot: a bad or missing variable
 * stops the process with a sentence naming it. Only `publicEnv` may reach the browser.
 */
import { randomBytes } from "node:crypto";
import { existsSync, linkSync, readFileSync, unlinkSync, writeFileSync } from "node:fs";
import { isIP } from "node:net";
import { DEFAULT_TRUSTED_PROXIES, parseTrustedProxies } from "./trusted-proxies";
import { resolve } from "node:path";
import { z } from "zod";
import { DEFAULT_SIMULATOR_MIX, parseMix } from "../simulator/outcome";
import { parseRedisUrl } from "./redis-url";

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
    /**
     * A streaming read replica of DATABASE_URL's server (ADR 030, api/lib/read-replica.ts): the
     * lag-tolerant reads (history, reports, dashboards, exports) go there while it answers and keeps
     * within REPLICA_MAX_LAG_MS; otherwise to the primary. Unset: every read goes to the primary.
     */
    DATABASE_REPLICA_URL: optionalText.superRefine((v, ctx) => {
      if (v === undefined) return;
      const problem = replicaUrlProblem(v);
      if (problem) ctx.addIssue({ code: "custom", message: problem });
    }),
    /** Lag-tolerant reads leave the replica when it takes longer than this to replay what the primary had written (ADR 030). */
    REPLICA_MAX_LAG_MS: z.coerce.number().int().min(100).max(3_600_000).default(5000),
    /** How often each process measures its replica (a check waits at most REPLICA_MAX_LAG_MS for it to catch up). */
    REPLICA_CHECK_MS: z.coerce.number().int().min(50).max(60_000).default(1000),
    /** One server (redis://host:port/db) or a Redis Cluster: a comma-separated list of seed nodes (ADR 028). */
    REDIS_URL: z
      .string()
      .default("redis://127.0.0.1:6379/0")
      .superRefine((v, ctx) => {
        try {
          parseRedisUrl(v);
        } catch (e) {
          ctx.addIssue({ code: z.ZodIssueCode.custom, message: (e as Error).message });
        }
      }),
    /** Who may tell us the client's address in X-Forwarded-For: our own web and the load balancers (api/lib/client-ip.ts). */
    TRUSTED_PROXIES: z
      .string()
      .default(DEFAULT_TRUSTED_PROXIES)
      .superRefine((v, ctx) => {
        try {
          parseTrustedProxies(v);
        } catch (e) {
          ctx.addIssue({ code: z.ZodIssueCode.custom, message: `TRUSTED_PROXIES: ${(e as Error).message}` });
        }
      }),
    /** Prefix for every Redis key/stream, so test runs never see each other's data. No braces: they would change the keys' hash tags. */
    REDIS_PREFIX: z
      .string()
      .regex(/^[^{}]*$/, "REDIS_PREFIX must not contain { or }")
      .default(""),
    /** Each job stream (dispatch per channel, mail, imports, exports, webhooks…) is split in this many shards, read side by side; on a cluster they spread over the masters. */
    STREAM_SHARDS: z.coerce.number().int().min(1).max(64).default(1),
    /** The live and notification streams of the accounts are grouped in this many hash tags: on a cluster a realtime process needs at most this many blocking readers. */
    REALTIME_SHARDS: z.coerce.number().int().min(1).max(256).default(16),
    WEB_PORT: port.default(3000),
    API_PORT: port.default(3001),
    REALTIME_PORT: port.default(3002),
    /** The web process's address; anything but loopback needs real secrets (assertBindable). */
    WEB_HOST: z.string().trim().default("127.0.0.1"),
    API_URL: z.string().url().optional(),
    REALTIME_URL: z.string().url().optional(),
    /** Public URL people open; used in e-mail links. */
    APP_URL: z.string().url().optional(),
    /** Outside production, the secrets not set come from this checkout's own random file (devSecrets). */
    DEV_SECRETS_FILE: z.string().trim().min(1).default(".secrets.dev.env"),
    SESSION_SECRET: z.string().min(32).optional(),
    JWT_SECRET: z.string().min(32).optional(),
    JWT_ACCESS_TTL: z.coerce.number().int().positive().default(900),
    JWT_REFRESH_TTL: z.coerce
      .number()
      .int()
      .positive()
      .default(60 * 60 * 24 * 30),
    /** smtp://user:pass@host:port — with none, mail lands in the local outbox (/dev/mailbox). */
    SMTP_URL: optionalText,
    MAIL_FROM: z.string().default("Mensageria <no-reply@mensageria.local>"),
    /** How often the worker re-announces e-mails still queued (lost stream entries). */
    MAIL_SWEEP_SECONDS: z.coerce.number().int().positive().default(15),
    /**
     * The platform's mail host for the e-mail channel (issue 17): customers' SPF records include
     * `_spf.<EMAIL_HOST>` and their bounce host is a CNAME to it (its MX receives the DSNs).
     */
    EMAIL_HOST: z
      .string()
      .trim()
      .toLowerCase()
      .regex(/^[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)+$/, "EMAIL_HOST must be a host name")
      .default("mail.mensageria.localhost"),
    /** DNS servers (host or host:port, comma separated) that sending domains are checked against; empty: the system's. Tests point it at a loopback server. */
    EMAIL_DNS_SERVERS: z
      .string()
      .default("")
      .transform((s) =>
        s
          .split(",")
          .map((x) => x.trim())
          .filter(Boolean),
      ),
    /** How long each DNS question of a domain check may take, in milliseconds. */
    EMAIL_DNS_TIMEOUT_MS: z.coerce.number().int().min(100).max(30_000).default(3000),
    /** The relay of the e-mail channel (smtp:// or smtps://, with credentials): every customer e-mail goes through it. Unset: the simulator's local SMTP peer (SIMULATOR_SMTP_PORT). */
    EMAIL_SMTP_URL: optionalText,
    /** Most SMTP connections the e-mail adapter keeps open per process (nodemailer's pool). */
    EMAIL_SMTP_POOL: z.coerce.number().int().min(1).max(100).default(5),
    /**
     * How long the e-mail adapter keeps a sending domain's DKIM key and an account's tracking
     * settings in memory (api/lib/memo.ts) instead of reading them for every message: a domain that
     * loses its validation, or a tracking switch, reaches the messages sent after it within this time.
     */
    EMAIL_SEND_CACHE_MS: z.coerce.number().int().min(0).max(60_000).default(5000),
    /**
     * DKIM's RSA signatures by the system's OpenSSL (libcrypto.so.3, through bun:ffi) when it is
     * there, else by node:crypto (ADR 075: the same bytes, ~2.5× the CPU under Bun). "false" always
     * uses node:crypto.
     */
    EMAIL_RSA_OPENSSL: z.enum(["true", "false"]).default("true"),
    /** How often the worker looks for sending domains due a recheck. */
    EMAIL_DOMAIN_SWEEP_MS: z.coerce.number().int().min(100).default(30_000),
    /** How often the worker rechecks a validated sending domain's DNS (a pending or failed one: every tenth of it). */
    EMAIL_DOMAIN_RECHECK_MS: z.coerce
      .number()
      .int()
      .min(10_000)
      .default(6 * 3_600_000),
    /**
     * The inbound mail listener (api/email/inbound-server.ts, ADR 036): the MX of every
     * `bounces.<domain>` and of EMAIL_HOST, where DSNs and complaints arrive. Production exposes it
     * on port 25 (a port forward, or CAP_NET_BIND_SERVICE with EMAIL_INBOUND_PORT=25).
     */
    EMAIL_INBOUND_PORT: port.default(2526),
    /** Loopback unless told otherwise; anything but loopback needs real secrets (assertBindable). */
    EMAIL_INBOUND_HOST: z.string().trim().default("127.0.0.1"),
    /** PEM files of the inbound listener's STARTTLS key and certificate, both or neither; neither: STARTTLS is not offered. */
    EMAIL_INBOUND_TLS_KEY: optionalText,
    EMAIL_INBOUND_TLS_CERT: optionalText,
    /** Where e-mail open pixels and click redirects point (`<url>/e/o/…`, `<url>/e/c/…`; ADR 039): a public origin whose /e/ reaches the web process. Unset: APP_URL. */
    EMAIL_TRACK_URL: z.string().url().optional(),
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
    /** WhatsApp Cloud API (Graph) base: Meta's in production; elsewhere, unless set, the simulator's loopback WhatsApp peer. */
    WHATSAPP_API_URL: z.string().url().optional(),
    /** Nuvemshop's API base (api/integrations/nuvemshop.ts; `{base}/v1/{store_id}/…`): the real one in production; elsewhere, unless set, the simulator's loopback store (api/simulator/nuvemshop.ts). */
    NUVEMSHOP_API_URL: z.string().url().optional(),
    /**
     * RCS Business Messaging (issue 21, ADR 055; api/channels/rcs/rbm.ts). RBM_SERVICE_ACCOUNT: the
     * platform's Google service-account key (the JSON the Cloud console downloads, on one line), whose
     * OAuth token (scope rcsbusinessmessaging) every RBM call carries. Unset outside production: the
     * simulator's loopback RBM peer with a development key derived from SIMULATOR_API_KEY
     * (api/channels/rcs/rbm-config.ts); unset in production: RCS has no provider.
     */
    RBM_SERVICE_ACCOUNT: optionalText,
    /** RBM's REST base (phones/{msisdn}/agentMessages, capabilities). Default: Google's with a key; the simulator's RBM peer without one. */
    RBM_API_URL: z.string().url().optional(),
    /** The OAuth token endpoint of RBM_SERVICE_ACCOUNT (the platform's, like GBM_TOKEN_URL). Default: Google's with a key; the simulator's without one. */
    RBM_TOKEN_URL: z.string().url().optional(),
    /** The client token of the RBM webhook (Google signs each post X-Goog-Signature with it). Default outside production: derived from SIMULATOR_API_KEY, as the simulator's peer signs. */
    RBM_CLIENT_TOKEN: optionalText,
    /** Where the simulator's RBM peer posts its signed callbacks (default: our API's /api/webhooks/rbm). */
    RBM_WEBHOOK_URL: z.string().url().optional(),
    /** How long a number's RCS capability (phones/{msisdn}/capabilities) is kept in Redis, in seconds. */
    RCS_CAPABILITY_TTL_S: z.coerce
      .number()
      .int()
      .min(1)
      .max(30 * 86_400)
      .default(86_400),
    GBM_API_URL: z.string().url().default("https://businessmessages.googleapis.com"),
    /** Google's OAuth token endpoint for Business Messages service accounts (the key's own token_uri is ignored: ADR 021). */
    GBM_TOKEN_URL: z.string().url().default("https://oauth2.googleapis.com/token"),
    /** How often the worker re-announces stuck imports and removes abandoned uploads. */
    IMPORT_SWEEP_SECONDS: z.coerce.number().int().positive().default(60),
    /**
     * Number lookup (issue 22, ADR 058; api/lookup/provider.ts): the lookup provider's batch HLR /
     * number-portability API base and its API key. Unset outside production: the simulator's loopback
     * lookup peer (SIMULATOR_URL/hlr, api/simulator/hlr.ts) with SIMULATOR_API_KEY; unset in production:
     * lookups have no provider (502 PROVIDER_UNAVAILABLE).
     */
    LOOKUP_API_URL: z.string().url().optional(),
    LOOKUP_API_KEY: optionalText,
    /**
     * Reclame Aqui (issue 23, ADR 067; api/ra/client.ts): the company API's base (token, tickets,
     * answers). Unset outside production: the simulator's peer (SIMULATOR_URL/ra); unset in
     * production: connecting answers 502 PROVIDER_UNAVAILABLE.
     */
    RA_API_URL: z.string().url().optional(),
    /** How often the worker syncs each connected account's complaints. */
    RA_SYNC_SECONDS: z.coerce.number().int().min(10).default(900),
    /** Numbers per provider request of a list lookup (the provider's batch limit). */
    LOOKUP_BATCH: z.coerce.number().int().min(1).max(10000).default(1000),
    /** Provider requests a list lookup keeps in flight at once. */
    LOOKUP_CONCURRENCY: z.coerce.number().int().min(1).max(64).default(4),
    /** How often the worker removes Idempotency-Keys older than 24 h. */
    IDEMPOTENCY_SWEEP_SECONDS: z.coerce.number().int().positive().default(3600),
    /** Where uploaded files (CSV imports) and generated reports are kept; shared by web, api and worker. */
    UPLOAD_DIR: z.string().default("var/uploads"),
    /** Where the partition job writes a month of messages (compressed CSV) before detaching it; default UPLOAD_DIR/message-archive (ADR 029). */
    MESSAGE_ARCHIVE_DIR: z.string().default(""),
    /** How many months of messages partitions the worker keeps created ahead of the current one (ADR 029). */
    MESSAGE_PARTITIONS_AHEAD_MONTHS: z.coerce.number().int().min(1).max(24).default(3),
    /** How often the worker's partition job runs (create ahead, export and detach past retention). */
    MESSAGE_PARTITIONS_SWEEP_SECONDS: z.coerce.number().int().positive().default(3600),
    /** Largest request body accepted (uploads), in megabytes. */
    MAX_UPLOAD_MB: z.coerce.number().int().positive().default(2048),
    /** Largest JSON, urlencoded or text body accepted on any route but the upload routes, in kilobytes (api/lib/body-limit.ts). */
    JSON_BODY_LIMIT_KB: z.coerce
      .number()
      .int()
      .positive()
      .max(1024 * 1024)
      .default(1024),
    /** Host name that serves only the unsubscribe page at /. */
    UNSUBSCRIBE_HOST: z.string().default("unsubscribe.localhost"),
    /** Host name of the link shortener's redirect host (ADR 057): the web process answers `/<slug>` on it; reserved like the others (platformHosts). */
    SHORTENER_HOST: z.string().default("short.localhost"),
    /** More hosts the platform serves short links on (comma-separated), a link's `domain` may name one (ADR 057). */
    SHORTENER_DOMAINS: optionalText,
    /** The short links' base URL when not `<APP_URL's scheme>://<domain><APP_URL's port>` (e.g. https://sho.rt behind a proxy). */
    SHORTENER_BASE_URL: z.string().url().optional(),
    /** How long the redirect host keeps a slug's answer in Redis (a deleted link is dropped at once). */
    SHORTENER_CACHE_SECONDS: z.coerce.number().int().positive().default(300),
    /** Public widget calls (api/live/widget-limits.ts): per client IP per minute, per widget key per minute, new conversations per IP per hour. */
    WIDGET_CALLS_PER_IP_PER_MINUTE: z.coerce.number().int().positive().default(120),
    WIDGET_CALLS_PER_KEY_PER_MINUTE: z.coerce.number().int().positive().default(1200),
    WIDGET_STARTS_PER_IP_PER_HOUR: z.coerce.number().int().positive().default(30),
    /** Sign-in failures (password or 2FA code) that lock one e-mail from one IP for the window; an e-mail alone is only slowed down. */
    LOGIN_MAX_FAILS_PER_EMAIL: z.coerce.number().int().positive().default(5),
    LOGIN_MAX_FAILS_PER_IP: z.coerce.number().int().positive().default(30),
    LOGIN_FAIL_WINDOW_SECONDS: z.coerce.number().int().positive().default(900),
    /** Longest wait added to a sign-in for an e-mail with LOGIN_MAX_FAILS_PER_EMAIL failures or more (from any IP). */
    LOGIN_SLOWDOWN_MAX_MS: z.coerce.number().int().min(0).max(30_000).default(3000),
    /** Wrong current passwords (password change, turning 2FA off) per person in PASSWORD_CHECK_WINDOW_SECONDS. */
    PASSWORD_CHECK_MAX_PER_USER: z.coerce.number().int().positive().default(5),
    PASSWORD_CHECK_WINDOW_SECONDS: z.coerce.number().int().positive().default(900),
    /** Anonymous requests per AUTH_REQUEST_WINDOW_SECONDS: sign-ups per IP, reset links per e-mail and per IP, reset submissions per IP, verification re-sends per e-mail and per IP. */
    REGISTER_MAX_PER_IP: z.coerce.number().int().positive().default(10),
    RESET_MAX_PER_EMAIL: z.coerce.number().int().positive().default(5),
    RESET_MAX_PER_IP: z.coerce.number().int().positive().default(20),
    RESET_SUBMIT_MAX_PER_IP: z.coerce.number().int().positive().default(20),
    RESEND_VERIFICATION_MAX_PER_EMAIL: z.coerce.number().int().positive().default(5),
    RESEND_VERIFICATION_MAX_PER_IP: z.coerce.number().int().positive().default(20),
    AUTH_REQUEST_WINDOW_SECONDS: z.coerce.number().int().positive().default(3600),
    /** Shared secret of the built-in SMS simulator's signed delivery receipts (Standard Webhooks; "whsec_<base64>" or plain text). */
    SIMULATOR_WEBHOOK_SECRET: z.string().min(24).optional(),
    /** The simulator process (a provider-like HTTP peer, the default provider without credentials). */
    SIMULATOR_PORT: port.default(3003),
    SIMULATOR_URL: z.string().url().optional(),
    /** Bearer key the simulator requires on its API (required in production). */
    SIMULATOR_API_KEY: z.string().min(16).optional(),
    /** Where the simulator posts its signed receipts (default: our API's provider webhook). */
    SIMULATOR_WEBHOOK_URL: z.string().url().optional(),
    /** Where the simulator's payment provider (its loopback PSP, api/simulator/psp.ts) posts its signed events (default: our API's payment webhook). */
    SIMULATOR_PAYMENTS_WEBHOOK_URL: z.string().url().optional(),
    /**
     * The simulator's local SMTP peer (api/simulator/smtp-peer.ts, ADR 036): a relay/receiving MTA
     * on 127.0.0.1 (never another address) that answers by the recipient's local part and sends
     * DSN and ARF reports back. Without EMAIL_SMTP_URL the e-mail channel sends to it.
     */
    SIMULATOR_SMTP_PORT: port.default(2525),
    /**
     * The local SMTP peer verifies the DKIM signature of 1 message in this many (default 1: every
     * one). A load test may raise it (bench/email-campaign.mjs): verifying is the peer's cost, not
     * the platform's; the others are recorded `dkim.result = "skipped"`.
     */
    SIMULATOR_DKIM_SAMPLE: z.coerce.number().int().min(1).max(1_000_000).default(1),
    /**
     * The simulator's DNS peer (UDP, 127.0.0.1): answers the names of its zone (the demo's sending
     * domain, published through /email/_sim/dns) and forwards every other question to
     * SIMULATOR_DNS_FORWARD (default: the system's resolvers). `npm start` checks sending domains
     * against it (api/email/dns.ts), so the demo domain validates and real ones still resolve.
     */
    SIMULATOR_DNS_PORT: port.default(2553),
    SIMULATOR_DNS_FORWARD: optionalText,
    // The local SMTP peer delivers its reports to EMAIL_INBOUND_HOST:EMAIL_INBOUND_PORT (our inbound listener, above), where a real MTA would ask the return path's MX.
    /** Delay between a submit and its delivery receipt (and between an e-mail the SMTP peer accepted and its reports). */
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
    /** Flows (ADR 054): how often the worker wakes due timers and republishes streams whose inputs nobody took. */
    FLOW_SWEEP_MS: z.coerce.number().int().min(50).default(1000),
    /** Flows: an input unconsumed this long is announced again on flows:events (Redis lost it, or its worker died). */
    FLOW_RECOVER_MS: z.coerce.number().int().min(100).default(2000),
    // An agent without a live connection this long loses the rooms waiting for them (back to the queue).
    LIVE_DISCONNECT_GRACE_SECONDS: z.coerce.number().min(0).max(86_400).default(60),
    /** How often each realtime connection re-checks its person is still allowed (the backstop of revocation events). */
    REALTIME_REVALIDATE_SECONDS: z.coerce.number().int().positive().default(30),
    DISPATCH_RETRY_IDLE_MS: z.coerce.number().int().min(100).default(15_000),
    /** How often the worker releases due scheduled messages (api/sms/release.ts). */
    SCHEDULE_SWEEP_MS: z.coerce.number().int().min(10).default(1000),
    /** Our SMPP server for the accounts' SMPP users (api/smpp/server.ts). */
    SMPP_PORT: port.default(2775),
    /** Loopback unless told otherwise; anything but loopback needs real secrets (assertBindable). */
    SMPP_HOST: z.string().trim().default("127.0.0.1"),
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
    /** Simulator: multiplies its receipt retry schedule (0.5 s … 1 h, for 24 h: api/simulator/server.ts); tests use e.g. 0.002. */
    SIMULATOR_RECEIPT_RETRY_SCALE: z.coerce.number().positive().max(10).default(1),
    /** Reconciliation: a message still `sent` this long after its submit is looked up at its provider (then again at this interval). */
    RECONCILE_AFTER_SECONDS: z.coerce.number().int().min(1).default(3600),
    /** Reconciliation: a message with no final status this long after its submit ends `unavailable` (EXPIRED), like an SMS's validity period. */
    SMS_VALIDITY_SECONDS: z.coerce
      .number()
      .int()
      .min(1)
      .default(72 * 3600),
    /** Reconciliation: how often the worker looks, and how many messages one look takes at most. */
    RECONCILE_SWEEP_SECONDS: z.coerce.number().int().min(1).default(60),
    /** How often the worker closes due postpaid cycles and fails overdue invoices (api/billing/cycles.ts, ADR 044). */
    BILLING_SWEEP_SECONDS: z.coerce.number().int().min(1).default(60),
    /** How often the worker reads pending WhatsApp templates at a provider that must be asked (the onprem BSP, ADR 035). */
    WHATSAPP_TEMPLATE_SWEEP_MS: z.coerce.number().int().min(100).default(5_000),
    RECONCILE_BATCH: z.coerce.number().int().min(1).max(10_000).default(500),
    /**
     * Outbound requests (api/lib/outbound.ts, ADR 021): may URLs that are not the platform's own
     * reach private, loopback or link-local addresses, and use plain http? Never in production; default yes elsewhere.
     */
    OUTBOUND_ALLOW_PRIVATE: z.enum(["true", "false"]).optional(),
    /** Deprecated alias of OUTBOUND_ALLOW_PRIVATE (read when that is not set). */
    WEBHOOK_ALLOW_PRIVATE_URLS: z.enum(["true", "false"]).optional(),
    /** Customer webhooks: multiplies the retry schedule (5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h); tests use e.g. 0.001. */
    WEBHOOK_RETRY_SCALE: z.coerce.number().positive().max(10).default(1),
    /** Customer webhooks per worker process: deliveries held at once (in flight or next in line), and POSTs in flight per endpoint (ADR 012: a slow endpoint holds only its own slots). */
    WEBHOOK_CONCURRENCY: z.coerce.number().int().min(1).max(5000).default(256),
    WEBHOOK_ENDPOINT_CONCURRENCY: z.coerce.number().int().min(1).max(1000).default(16),
    /** Customer webhooks: how often the worker looks for due deliveries. */
    WEBHOOK_SWEEP_MS: z.coerce.number().int().min(10).default(1000),
    /** Customer webhooks: a POST not answered within this is a failed attempt. */
    WEBHOOK_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(10_000),
  })
  .superRefine((env, ctx) => {
    if (Boolean(env.EMAIL_INBOUND_TLS_KEY) !== Boolean(env.EMAIL_INBOUND_TLS_CERT)) {
      const [missing, given] = env.EMAIL_INBOUND_TLS_KEY ? ["EMAIL_INBOUND_TLS_CERT", "EMAIL_INBOUND_TLS_KEY"] : ["EMAIL_INBOUND_TLS_KEY", "EMAIL_INBOUND_TLS_CERT"];
      ctx.addIssue({ code: "custom", path: [missing], message: `is not set but ${given} is: set both (STARTTLS on the inbound listener) or neither` });
    }
    if (env.NODE_ENV === "production") {
      for (const key of ["SESSION_SECRET", "JWT_SECRET", "APP_URL", "SIMULATOR_WEBHOOK_SECRET", "SIMULATOR_API_KEY"] as const) {
        if (!env[key]) ctx.addIssue({ code: "custom", path: [key], message: "is required in production" });
      }
      for (const key of ["OUTBOUND_ALLOW_PRIVATE", "WEBHOOK_ALLOW_PRIVATE_URLS"] as const) {
        if (env[key] === "true") ctx.addIssue({ code: "custom", path: [key], message: "cannot be true in production" });
      }
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
  SIMULATOR_PAYMENTS_WEBHOOK_URL: string;
  WHATSAPP_API_URL: string;
  NUVEMSHOP_API_URL: string;
  RBM_WEBHOOK_URL: string;
  /** True when any secret came from DEV_SECRETS_FILE: then every listener stays on loopback. */
  DEV_SECRETS: boolean;
};

/** The secrets production requires and development draws from DEV_SECRETS_FILE. */
export const SECRET_NAMES = ["SESSION_SECRET", "JWT_SECRET", "SIMULATOR_WEBHOOK_SECRET", "SIMULATOR_API_KEY"] as const;
type SecretName = (typeof SECRET_NAMES)[number];

export function parseEnv(source: Record<string, string | undefined>): Env {
  const result = schema.safeParse(source);
  const lines = result.success ? [] : result.error.issues.map((i) => `${i.path.join(".") || "env"}: ${i.message}`);
  // A physical replica holds the same databases as its primary: one of another name is a mistake.
  // Compared only when DATABASE_URL is given (a test process reading its secrets may have none).
  const replica = result.data?.DATABASE_REPLICA_URL;
  if (result.success && replica && source.DATABASE_URL && databaseOf(replica) !== databaseOf(source.DATABASE_URL)) {
    lines.push(
      `DATABASE_REPLICA_URL: names database "${databaseOf(replica)}" but DATABASE_URL names "${databaseOf(source.DATABASE_URL)}": a replica serves the primary's own databases`,
    );
  }
  if (!result.success || lines.length) throw new Error(`Invalid configuration — fix these environment variables:\n  ${lines.join("\n  ")}`);
  const e = result.data;
  // Outside production (where the schema requires them all) a secret not set is this checkout's
  // own random one: no secret is written in the source, and no two checkouts share one.
  const unset = SECRET_NAMES.filter((name) => !e[name]);
  const dev = unset.length ? devSecrets(e.DEV_SECRETS_FILE) : undefined;
  const apiUrl = e.API_URL ?? `http://127.0.0.1:${e.API_PORT}`;
  return {
    ...e,
    SESSION_SECRET: e.SESSION_SECRET ?? dev!.SESSION_SECRET,
    JWT_SECRET: e.JWT_SECRET ?? dev!.JWT_SECRET,
    APP_URL: e.APP_URL ?? `http://localhost:${e.WEB_PORT}`,
    API_URL: apiUrl,
    REALTIME_URL: e.REALTIME_URL ?? `http://127.0.0.1:${e.REALTIME_PORT}`,
    SIMULATOR_WEBHOOK_SECRET: e.SIMULATOR_WEBHOOK_SECRET ?? dev!.SIMULATOR_WEBHOOK_SECRET,
    SIMULATOR_URL: e.SIMULATOR_URL ?? `http://127.0.0.1:${e.SIMULATOR_PORT}`,
    SIMULATOR_API_KEY: e.SIMULATOR_API_KEY ?? dev!.SIMULATOR_API_KEY,
    SIMULATOR_WEBHOOK_URL: e.SIMULATOR_WEBHOOK_URL ?? `${apiUrl.replace(/\/+$/, "")}/api/webhooks/providers/simulator`,
    SIMULATOR_PAYMENTS_WEBHOOK_URL: e.SIMULATOR_PAYMENTS_WEBHOOK_URL ?? `${apiUrl.replace(/\/+$/, "")}/api/webhooks/payments/simulator`,
    WHATSAPP_API_URL:
      e.WHATSAPP_API_URL ?? (e.NODE_ENV === "production" ? "https://graph.facebook.com/v19.0" : `${e.SIMULATOR_URL ?? `http://127.0.0.1:${e.SIMULATOR_PORT}`}/whatsapp/v19.0`),
    NUVEMSHOP_API_URL:
      e.NUVEMSHOP_API_URL ?? (e.NODE_ENV === "production" ? "https://api.nuvemshop.com.br" : `${e.SIMULATOR_URL ?? `http://127.0.0.1:${e.SIMULATOR_PORT}`}/nuvemshop`),
    RBM_WEBHOOK_URL: e.RBM_WEBHOOK_URL ?? `${apiUrl.replace(/\/+$/, "")}/api/webhooks/rbm`,
    DEV_SECRETS: dev !== undefined,
  };
}

/**
 * The development secrets of a checkout: `file` (relative to the working directory, where every
 * process of `npm start` runs), created with random values by whichever process needs it first.
 * The file is written in full under a temporary name and then hard-linked into place, which fails
 * when it already exists: processes starting together all end up reading the one that won.
 */
export function devSecrets(file: string): Record<SecretName, string> {
  const path = resolve(file);
  if (!existsSync(path)) {
    const tmp = `${path}.${process.pid}.${randomBytes(6).toString("hex")}.tmp`;
    const lines = [
      "# Development secrets of this checkout, generated once at random by api/lib/env.ts; never commit them.",
      "# Production takes real ones from the environment. Delete this file to get new ones.",
      ...SECRET_NAMES.map((name) => `${name}=${randomBytes(32).toString("base64url")}`),
    ];
    writeFileSync(tmp, lines.join("\n") + "\n", { mode: 0o600, flag: "wx" });
    try {
      linkSync(tmp, path);
      console.error(`Generated this checkout's development secrets in ${path}.`);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
    } finally {
      unlinkSync(tmp);
    }
  }
  const values = new Map<string, string>();
  for (const line of readFileSync(path, "utf8").split("\n")) {
    const i = line.indexOf("=");
    if (i > 0 && !line.trimStart().startsWith("#")) values.set(line.slice(0, i).trim(), line.slice(i + 1).trim());
  }
  const secrets = {} as Record<SecretName, string>;
  for (const name of SECRET_NAMES) {
    const value = values.get(name) ?? "";
    if (value.length < 32) throw new Error(`${path} has no ${name} of 32 or more characters: delete the file to generate new development secrets.`);
    secrets[name] = value;
  }
  return secrets;
}

/** 127.0.0.0/8, ::1 (also IPv4-mapped) and localhost. */
export function isLoopbackHost(host: string): boolean {
  const h = host
    .trim()
    .toLowerCase()
    .replace(/^\[(.*)\]$/, "$1");
  if (h === "localhost") return true;
  if (isIP(h) === 4) return h.startsWith("127.");
  if (isIP(h) === 6) return /^(0{0,4}:){1,7}0{0,3}1$/.test(h) || /^::ffff:127\./.test(h);
  return false;
}

/**
 * Why a listener must not bind `host` (from `variable`), or null: with development secrets, which
 * sit in a file on this machine, only loopback, so nobody else can sign a staff token with them.
 */
export function bindRefusal(e: Pick<Env, "DEV_SECRETS" | "DEV_SECRETS_FILE">, host: string, variable: string): string | null {
  if (!e.DEV_SECRETS || isLoopbackHost(host)) return null;
  return (
    `${variable}=${host} refused: this process runs with the development secrets of ${e.DEV_SECRETS_FILE}, which must not be reachable from other machines. ` +
    `Set ${SECRET_NAMES.join(", ")} to real random values to listen on ${host}, or leave ${variable} unset (127.0.0.1).`
  );
}

/** Every server calls this before it listens: stops the process with bindRefusal's sentence. */
export function assertBindable(host: string, variable: string): void {
  const refusal = bindRefusal(env(), host, variable);
  if (!refusal) return;
  console.error(refusal);
  process.exit(1);
}

const databaseOf = (url: string) => decodeURIComponent(new URL(url).pathname.replace(/^\//, ""));

/** Why DATABASE_REPLICA_URL is unusable as written, or null. */
export function replicaUrlProblem(text: string): string | null {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return "is not a URL (postgres://user:password@host:5432/database)";
  }
  if (url.protocol !== "postgres:" && url.protocol !== "postgresql:") return `must start with postgres:// (not ${url.protocol}//)`;
  if (!url.hostname) return "names no host (postgres://user:password@host:5432/database)";
  if (!databaseOf(text)) return "names no database (postgres://user:password@host:5432/database)";
  return null;
}

export type RouteRate = { rate: number; burst: number };

/** "T1:200,T2:100:20" -> {T1: {rate: 200, burst: 10}, T2: {rate: 100, burst: 20}}; default burst = rate / 20 (50 ms worth), at least 1. */
export function parseRouteRates(text: string): Record<string, RouteRate> {
  const out: Record<string, RouteRate> = {};
  for (const part of text
    .split(",")
    .map((p) => p.trim())
    .filter(Boolean)) {
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

/**
 * The platform's own host names, lower-case: the app's (APP_URL), the unsubscribe page's, the
 * link shortener's and the e-mail tracking links' (EMAIL_TRACK_URL). A reseller can never claim one as its whitelabel host, nor be served on one.
 */
export function platformHosts(): string[] {
  const e = env();
  const hosts = [
    new URL(e.APP_URL).hostname,
    e.UNSUBSCRIBE_HOST,
    e.SHORTENER_HOST,
    ...(e.SHORTENER_DOMAINS ?? "").split(","),
    e.EMAIL_TRACK_URL ? new URL(e.EMAIL_TRACK_URL).hostname : null,
  ];
  return [...new Set(hosts.filter((h): h is string => Boolean(h)).map((h) => h.trim().toLowerCase().replace(/\.$/, "")))];
}

export function publicEnv() {
  const e = env();
  return {
    googleEnabled: Boolean(e.GOOGLE_CLIENT_ID && e.GOOGLE_CLIENT_SECRET),
    facebookEnabled: Boolean(e.FACEBOOK_CLIENT_ID && e.FACEBOOK_CLIENT_SECRET),
    production: e.NODE_ENV === "production",
  };
}
