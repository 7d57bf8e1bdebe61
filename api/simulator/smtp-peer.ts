/**
 * The local SMTP peer of the e-mail channel (ADR 036), part of the simulator process: a real SMTP
 * server on 127.0.0.1:SIMULATOR_SMTP_PORT standing in for the relay and the receiving MTAs, so a
 * fresh machine (SMTP_URL=smtp://127.0.0.1:2525) and the tests see every e-mail status without a
 * real relay or real DNS.
 *
 * The conversation: no TLS (STARTTLS is not offered), AUTH optional (any credentials are taken,
 * as a relay account would be), at most MAX_RECIPIENTS per message (452 past it), messages up to
 * MAX_MESSAGE_BYTES (552 above it, also for a larger SIZE= declared at MAIL FROM). The DSN
 * extension (RFC 3461) is offered: RET and ENVID at MAIL FROM, NOTIFY and ORCPT at RCPT TO are
 * kept with the message and used in the reports.
 *
 * Each recipient is answered by its local part (./smtp-outcome.ts): `bounce…` 550 5.1.1, `block…`
 * 554 5.7.1 and `defer…` 451 4.2.0 at RCPT TO; the rest is accepted, and after DATA (250 "queued
 * as <id>") the message is recorded and its reports are due SIMULATOR_DELAY_MS later:
 * `late-bounce…` a failed DSN, `delay…` a delayed DSN, `complain…` a success DSN and an ARF abuse
 * report, anything else a success DSN (the DSNs as the recipient's NOTIFY asks: wantsReport).
 *
 * DKIM is verified at DATA with mailauth (an implementation independent of our signer), strict
 * (RFC 6376 exactly: a body that changed fails), its key look-ups answered by our own DNS client
 * (api/email/dns.ts txt(), EMAIL_DNS_SERVERS): the peer sees the DNS the platform sees.
 *
 * Every accepted message is recorded in Redis (the key scheme's `sim-mail` keys): the last
 * KEPT_MESSAGES, newest first, with envelope, DSN parameters, the main header fields, the size,
 * the first KEPT_RAW_BYTES of the message and the DKIM result. Inspection on the simulator's HTTP
 * server (Authorization: Bearer SIMULATOR_API_KEY, like the other `_sim` routes):
 *   GET /email/_sim/messages?to=<address>&limit=<1..1000, default 50> -> {data: [...]}, newest
 *     first, without the raw message;
 *   GET /email/_sim/messages/{id} -> {data: {..., raw}}, 404 for an id no longer kept;
 *   GET /email/_sim/counts?domain=<recipient domain> -> {data: {<address>: <messages received>}}:
 *     every accepted message counted per recipient (not capped like the mailbox; kept a day), so a
 *     campaign to thousands can prove each address got exactly one;
 *   GET /email/_sim/reports -> {data: {in_flight, waiting, waiting_max, intake_waiting}}: the
 *     reports on their way and waiting, and the messages whose DATA answer waits for room.
 *
 * Reports go by SMTP (../email/smtp-pool.ts, nodemailer's SMTPConnection) to EMAIL_INBOUND_HOST:EMAIL_INBOUND_PORT — our inbound listener;
 * a real MTA would ask the return path's MX, which for our `bounces.<domain>` is that listener —
 * to the envelope's MAIL FROM with the null sender `<>` (RFC 3464: a report never causes another).
 * A message sent with the null sender itself gets no report. If the listener does not answer (or
 * answers 4xx), a report is retried REPORT_RETRY_MS apart and then given up with a log line: a real
 * MTA queues for days, this one for seconds. A 5xx answer is final. Due reports live in memory: a
 * restart of the simulator forgets them (the recorded messages stay in Redis). Past
 * REPORTS_WAITING_MAX waiting reports the peer answers the next DATA only once there is room,
 * as an MTA with a full queue slows its intake (memory stays bounded at any campaign size).
 */
import { randomUUID } from "node:crypto";
import { dkimVerify } from "mailauth";
import { SMTPServer, type SMTPServerAddress, type SMTPServerSession } from "smtp-server";
import { txt } from "../email/dns";
import { SmtpPool } from "../email/smtp-pool";
import { env } from "../lib/env";
import { redis } from "../lib/redis";
import { keys } from "../lib/redis-keys";
import { type PeerReport, recipientOutcome, wantsReport } from "./smtp-outcome";
import { type PeerHeaders, readPeerHeaders } from "./smtp-headers";
import { deliveryStatusReport, feedbackReport, type Original } from "./smtp-reports";

const config = env();
/** The peer's host name: its EHLO greeting, its reports' Reporting-MTA and sender domain. */
export const SMTP_PEER_NAME = "mx.simulator.localhost";
/** Loopback only: the peer takes anyone's mail and has no secret of its own. */
const HOST = "127.0.0.1";
const MAX_MESSAGE_BYTES = 25 * 1024 * 1024;
const MAX_RECIPIENTS = 100;
/** Messages kept for inspection (older ones are dropped as new ones arrive). */
const KEPT_MESSAGES = 1000;
/** How much of each message is kept for inspection. */
const KEPT_RAW_BYTES = 256 * 1024;
/** Waits before each new attempt at a report the inbound listener did not take (about 15 s in all). */
const REPORT_RETRY_MS = [500, 1000, 2000, 4000, 8000];
/** Connections kept open to each destination of reports (the inbound listener, a routed domain). */
const REPORT_CONNECTIONS = 8;

type DkimRecord = { result: "pass" | "fail" | "neutral" | "policy" | "none" | "temperror" | "permerror" | "skipped"; domain: string | null; selector: string | null; info: string };

/** What is recorded of an accepted message (the raw message is kept beside it, see record()). */
export type PeerMessage = {
  id: string;
  received_at: string;
  /** The return path ("" for the null sender). */
  mail_from: string;
  rcpt_to: string[];
  /** RFC 3461 parameters: the envelope's RET and ENVID, each recipient's NOTIFY and ORCPT. */
  dsn: { ret: string | null; envid: string | null; recipients: Array<{ address: string; notify: string[] | null; orcpt: string | null }> };
  headers: { subject: string | null; from: string | null; to: string | null; message_id: string | null };
  /** Bytes received after DATA. */
  size: number;
  raw_truncated: boolean;
  dkim: DkimRecord;
  /** The reports due about it, per recipient, as decided at acceptance. */
  reports: Array<{ recipient: string; kind: PeerReport }>;
  client: { address: string; helo: string | null };
};

/** A Node-style DNS error: mailauth tells "no key" (ENOTFOUND, ENODATA) from a DNS failure (anything else: temperror) by the code. */
const dnsError = (message: string, code: string) => Object.assign(new Error(message), { code });

/**
 * Keys found, kept for their time to live (at most KEY_CACHE_MAX_S), as a receiving MTA's resolver
 * keeps them: one look-up per key and TTL, not one per message (ADR 074). "No key" and DNS failures
 * are asked again every time.
 */
const KEY_CACHE_MAX_S = 300;
const KEY_CACHE_SIZE = 1000;
const keyCache = new Map<string, { values: string[]; until: number }>();

/** mailauth's resolver (dns.promises.resolve's shape), answered by our DNS client: TXT only, which is all DKIM asks. */
async function resolver(name: string, rrtype: string): Promise<string[][]> {
  if (rrtype !== "TXT") throw dnsError(`${rrtype} look-ups are not answered by the SMTP peer`, "ENOTIMP");
  const key = name.toLowerCase();
  const cached = keyCache.get(key);
  if (cached && cached.until > Date.now()) return cached.values.map((v) => [v]);
  const found = await txt(name);
  if (found.kind === "found" && found.ttl > 0) {
    keyCache.delete(key);
    if (keyCache.size >= KEY_CACHE_SIZE) keyCache.delete(keyCache.keys().next().value!);
    keyCache.set(key, { values: found.values, until: Date.now() + Math.min(found.ttl, KEY_CACHE_MAX_S) * 1000 });
  }
  if (found.kind === "found") return found.values.map((v) => [v]);
  if (found.kind === "none") throw dnsError(`no TXT record at ${name}`, "ENOTFOUND");
  // DNS did not answer: never "no key" (that would be a verdict on the domain).
  throw dnsError(`DNS did not answer for ${name}: ${found.code}`, found.code === "ENOTFOUND" || found.code === "ENODATA" ? "ESERVFAIL" : found.code);
}

/** The DKIM verdict of a message: the first passing signature's, else the first signature's ("none": not signed). */
async function verifyDkim(message: Buffer, mailFrom: string): Promise<DkimRecord> {
  try {
    const { results } = await dkimVerify(message, { resolver, sender: mailFrom || undefined, strict: true });
    const chosen = results.find((r) => r.status.result === "pass") ?? results[0];
    return {
      result: (chosen?.status.result ?? "none") as DkimRecord["result"],
      domain: chosen?.signingDomain ?? null,
      selector: chosen?.selector ?? null,
      info: chosen?.info ?? "dkim=none",
    };
  } catch (e) {
    return { result: "temperror", domain: null, selector: null, info: `dkim=temperror (${(e as Error).message})` };
  }
}

/** The header block of a message (up to the first empty line). */
function headerBlock(message: Buffer): string {
  const text = message.subarray(0, Math.min(message.length, KEPT_RAW_BYTES)).toString("utf8");
  const end = text.search(/\r?\n\r?\n/);
  return end >= 0 ? text.slice(0, end) : text;
}

/**
 * Keeps the message: its id first in the ids list, its fields and its raw text in the entries hash
 * (fields `<id>` and `<id>:raw`, so a listing never reads the raw); past KEPT_MESSAGES the oldest
 * go, both fields. One script: the two keys share the `sim-mail` tag.
 */
const RECORD_SCRIPT = `
for i = 3, #KEYS do
  redis.call('HINCRBY', KEYS[i], ARGV[3 + i], 1)
  redis.call('EXPIRE', KEYS[i], tonumber(ARGV[5]))
end
redis.call('LPUSH', KEYS[1], ARGV[1])
redis.call('HSET', KEYS[2], ARGV[1], ARGV[2], ARGV[1] .. ':raw', ARGV[3])
local cap = tonumber(ARGV[4])
local old = redis.call('LRANGE', KEYS[1], cap, -1)
for _, id in ipairs(old) do redis.call('HDEL', KEYS[2], id, id .. ':raw') end
if #old > 0 then redis.call('LTRIM', KEYS[1], 0, cap - 1) end
return #old
`;

const COUNTS_TTL_SECONDS = 86_400;

/** One script: the mailbox (ids and entries) and each recipient's count in its domain's hash (all under the `sim-mail` tag). */
async function record(entry: PeerMessage, raw: string) {
  const rcpts = entry.rcpt_to.map((a) => a.toLowerCase());
  const countKeys = rcpts.map((a) => keys.simulatorMailCounts(a.slice(a.lastIndexOf("@") + 1)));
  await redis().eval(
    RECORD_SCRIPT,
    2 + countKeys.length,
    keys.simulatorMailIds(),
    keys.simulatorMailEntries(),
    ...countKeys,
    entry.id,
    JSON.stringify(entry),
    raw,
    KEPT_MESSAGES,
    COUNTS_TTL_SECONDS,
    ...rcpts,
  );
}

/**
 * Where reports to a domain go, when not to our inbound listener: the MX a real MTA would look up
 * for the return path's domain, set per domain through POST /email/_sim/routes (a test that stands
 * in for the listener routes its own return-path domain to itself). In memory, like a DNS cache.
 */
const routes = new Map<string, number>();
const transports = new Map<string, SmtpPool>();
/** A plain SMTP client to our inbound listener, or to a routed domain's port (no TLS: it is on our side of the network). */
function inbound(to: string): SmtpPool {
  const domain = to.slice(to.lastIndexOf("@") + 1).toLowerCase();
  const port = routes.get(domain) ?? config.EMAIL_INBOUND_PORT;
  const host = routes.has(domain) ? "127.0.0.1" : config.EMAIL_INBOUND_HOST;
  const key = `${host}:${port}`;
  let transport = transports.get(key);
  if (!transport) {
    // Pooled (../email/smtp-pool.ts), as an MTA keeps its connections to a busy MX open: a
    // campaign's thousands of reports do not each pay a TCP connect, greeting and EHLO.
    transport = new SmtpPool({
      host,
      port,
      secure: false,
      ignoreTLS: true,
      name: SMTP_PEER_NAME,
      size: REPORT_CONNECTIONS,
      connectionTimeout: 5000,
      greetingTimeout: 5000,
      socketTimeout: 10_000,
    });
    transports.set(key, transport);
  }
  return transport;
}

/**
 * Reports on their way at once (each holds a pooled connection or waits for one in the pool's
 * queue); the rest wait here as their text. A listener slower than a campaign's sends had every
 * due report queued inside the SMTP client at once (a 100,000 campaign: 785 MB in this process).
 */
const REPORTS_IN_FLIGHT = REPORT_CONNECTIONS * 2;
let reportsInFlight = 0;
const reportsWaiting: Array<() => void> = [];
/** Reports of accepted messages not yet on their way (due later, or waiting for a slot): what intake bounds. */
let reportsQueued = 0;
async function reportSlot<T>(send: () => Promise<T>): Promise<T> {
  if (reportsInFlight >= REPORTS_IN_FLIGHT) await new Promise<void>((go) => reportsWaiting.push(go));
  else reportsInFlight++;
  reportsQueued--;
  wakeIntake();
  try {
    return await send();
  } finally {
    const next = reportsWaiting.shift();
    if (next)
      next(); // the slot passes on
    else reportsInFlight--;
  }
}

/**
 * Past this many queued reports, the peer answers a message's DATA only once there is room for
 * its reports, as an MTA whose queue is full slows its intake: a campaign faster than the
 * listener waits at the sender instead of piling reports up here (a 100,000 campaign: 585–785 MB
 * in this process before, ADR 041). Room is taken when the answer is given, so the bound holds
 * with any number of sessions. A few seconds at most: the senders' SMTP timeouts are far longer.
 */
const REPORTS_WAITING_MAX = 1_000;
const intakeWaiting: Array<() => void> = [];
function wakeIntake() {
  if (reportsQueued < REPORTS_WAITING_MAX) for (const go of intakeWaiting.splice(0)) go();
}
async function intakeRoom(reports: number) {
  // A message with more reports than the bound still gets in once nothing is queued.
  while (reportsQueued > 0 && reportsQueued + reports > REPORTS_WAITING_MAX) await new Promise<void>((go) => intakeWaiting.push(go));
  reportsQueued += reports;
}

/** Delivers one report to `to` with the null envelope sender; retried while the listener is away or answers 4xx. */
async function sendReport(to: string, raw: string, what: string) {
  for (let attempt = 0; ; attempt++) {
    try {
      await inbound(to).send({ from: "", to: [to] }, raw);
      return;
    } catch (e) {
      const err = e as Error & { responseCode?: number };
      const permanent = typeof err.responseCode === "number" && err.responseCode >= 500;
      if (permanent || attempt >= REPORT_RETRY_MS.length) {
        console.error(`smtp peer: ${what} to <${to}> given up after ${attempt + 1} attempt(s): ${err.message}`);
        return;
      }
      await new Promise((r) => setTimeout(r, REPORT_RETRY_MS[attempt]));
    }
  }
}

/**
 * SIMULATOR_DELAY_MS after acceptance, each due report is written and sent (one at a time per
 * message). A complaint reports the DKIM-verified domain, else the From header's (`authorDomain`).
 */
function scheduleReports(entry: PeerMessage, header: string, authorDomain: string | null) {
  if (entry.reports.length === 0) return;
  const arrivalDate = new Date(entry.received_at);
  setTimeout(() => {
    void (async () => {
      for (const { recipient, kind } of entry.reports) {
        // The report is written once it has a slot: a queued report is only its entry (and counts toward intake's bound until then).
        await reportSlot(() => {
          const rcpt = entry.dsn.recipients.find((r) => r.address === recipient);
          const original: Original = {
            mailFrom: entry.mail_from,
            recipient,
            orcpt: rcpt?.orcpt,
            envid: entry.dsn.envid,
            arrivalDate,
            header,
            sourceIp: entry.client.address,
          };
          const now = new Date();
          const domain = recipient.split("@").pop()!.toLowerCase();
          const raw =
            kind === "complaint"
              ? feedbackReport({
                  reportingMta: SMTP_PEER_NAME,
                  original,
                  reportedDomain: entry.dkim.result === "pass" && entry.dkim.domain ? entry.dkim.domain : (authorDomain ?? domain),
                  authenticationResults: `${SMTP_PEER_NAME}; ${entry.dkim.info}`,
                  now,
                })
              : deliveryStatusReport({ reportingMta: SMTP_PEER_NAME, remoteMta: `mx.${domain}`, action: kind, original, now });
          return sendReport(entry.mail_from, raw, `${kind === "complaint" ? "complaint" : `${kind} DSN`} about ${entry.id} (${recipient})`);
        }).catch((e) => console.error(`smtp peer: a report about ${entry.id} (${recipient}) failed: ${(e as Error).message}`));
      }
    })().catch((e) => console.error(`smtp peer: reports about ${entry.id} failed: ${(e as Error).message}`));
  }, config.SIMULATOR_DELAY_MS);
}

let received = -1;
const SKIPPED: DkimRecord = { result: "skipped", domain: null, selector: null, info: "dkim not verified (SIMULATOR_DKIM_SAMPLE)" };

/** A message came in whole: verify (every one, or 1 in SIMULATOR_DKIM_SAMPLE), record, schedule its reports; answers its id. */
async function accept(message: Buffer, size: number, session: SMTPServerSession): Promise<string> {
  const { envelope } = session;
  const mailFrom = envelope.mailFrom ? envelope.mailFrom.address : "";
  const header = headerBlock(message);
  const parsed = readPeerHeaders(header);
  const recipients = envelope.rcptTo.map((r: SMTPServerAddress) => ({ address: r.address, notify: r.dsn?.notify ?? null, orcpt: r.dsn?.orcpt ?? null }));
  const reports: PeerMessage["reports"] = [];
  // Nobody answers the null sender (a report about a report would loop).
  if (mailFrom) {
    for (const r of recipients) {
      const outcome = recipientOutcome(r.address);
      if (outcome.at !== "data") continue;
      for (const kind of outcome.reports) if (wantsReport(kind, r.notify ?? undefined)) reports.push({ recipient: r.address, kind });
    }
  }
  await intakeRoom(reports.length);
  try {
    return await recordAndSchedule(message, size, session, { mailFrom, header, parsed, recipients, reports });
  } catch (e) {
    // Not accepted after all: its reports' room is given back.
    reportsQueued -= reports.length;
    wakeIntake();
    throw e;
  }
}

async function recordAndSchedule(
  message: Buffer,
  size: number,
  session: SMTPServerSession,
  {
    mailFrom,
    header,
    parsed,
    recipients,
    reports,
  }: { mailFrom: string; header: string; parsed: PeerHeaders; recipients: PeerMessage["dsn"]["recipients"]; reports: PeerMessage["reports"] },
): Promise<string> {
  const { envelope } = session;
  const entry: PeerMessage = {
    id: `simmail_${randomUUID()}`,
    received_at: new Date().toISOString(),
    mail_from: mailFrom,
    rcpt_to: recipients.map((r) => r.address),
    dsn: { ret: envelope.dsn?.ret ?? null, envid: envelope.dsn?.envid ?? null, recipients },
    headers: {
      subject: parsed.subject,
      from: parsed.from,
      to: parsed.to,
      message_id: parsed.message_id,
    },
    size,
    raw_truncated: message.length > KEPT_RAW_BYTES,
    dkim: ++received % config.SIMULATOR_DKIM_SAMPLE === 0 ? await verifyDkim(message, mailFrom) : SKIPPED,
    reports,
    client: { address: session.remoteAddress, helo: session.hostNameAppearsAs || null },
  };
  await record(entry, message.subarray(0, KEPT_RAW_BYTES).toString("utf8"));
  scheduleReports(entry, header, parsed.fromDomain);
  return entry.id;
}

const smtpError = (code: number, message: string) => Object.assign(new Error(message), { responseCode: code });

/** Starts the peer; resolves once it listens. A port that cannot be bound stops the simulator with a sentence naming it. */
export async function startSmtpPeer(): Promise<{ port: number; close: () => Promise<void> }> {
  const server = new SMTPServer({
    name: SMTP_PEER_NAME,
    banner: "Mensageria simulator SMTP peer (ADR 036)",
    disabledCommands: ["STARTTLS"],
    authOptional: true,
    allowInsecureAuth: true,
    onAuth: (auth, _session, callback) => callback(null, { user: auth.username ?? "relay" }),
    size: MAX_MESSAGE_BYTES,
    rejectOversized: true,
    maxRecipients: MAX_RECIPIENTS,
    hideDSN: false,
    disableReverseLookup: true,
    logger: false,
    closeTimeout: 2000,
    onRcptTo(address, _session, callback) {
      const outcome = recipientOutcome(address.address);
      if (outcome.at === "rcpt") return callback(smtpError(outcome.code, outcome.reply));
      callback();
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (chunk: Buffer) => {
        // Past the limit the rest is only drained (rejectOversized answers 552).
        if (!stream.sizeExceeded) chunks.push(chunk);
      });
      stream.on("end", () => {
        if (stream.sizeExceeded) return callback(smtpError(552, `5.3.4 Message size exceeds fixed maximum message size ${MAX_MESSAGE_BYTES}`));
        accept(Buffer.concat(chunks), stream.byteLength, session).then(
          (id) => callback(null, `Ok: queued as ${id}`),
          (e) => {
            console.error(`smtp peer: could not accept a message: ${(e as Error).message}`);
            callback(smtpError(451, "4.3.0 Local error in processing, try again later"));
          },
        );
      });
    },
  });
  server.on("error", (e) => console.error(`smtp peer: ${e.message}`));
  await new Promise<void>((resolve) => {
    const failed = (e: NodeJS.ErrnoException) => {
      console.error(`SIMULATOR_SMTP_PORT=${config.SIMULATOR_SMTP_PORT}: the simulator's SMTP peer cannot listen on ${HOST}:${config.SIMULATOR_SMTP_PORT} (${e.code ?? e.message})`);
      process.exit(1);
    };
    server.server.once("error", failed);
    server.listen(config.SIMULATOR_SMTP_PORT, HOST, () => {
      server.server.off("error", failed);
      resolve();
    });
  });
  return {
    port: config.SIMULATOR_SMTP_PORT,
    close: () =>
      new Promise<void>((resolve) => {
        for (const t of transports.values()) t.close();
        server.close(() => resolve());
      }),
  };
}

const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status, headers: { "Content-Type": "application/json" } });
const MESSAGES = "/email/_sim/messages";
/** POST {domain, port}: reports to addresses at `domain` go to 127.0.0.1:port (see `routes`). */
const ROUTES = "/email/_sim/routes";
/** GET ?domain=: per-address counts of the messages received for a recipient domain. */
const COUNTS = "/email/_sim/counts";
/** GET: the reports on their way and waiting, and the messages whose DATA waits for room (intake backpressure). */
const REPORTS = "/email/_sim/reports";

/** GET /email/_sim/messages and /email/_sim/messages/{id} (see the header); null for any other path. */
export async function smtpPeerInspection(req: Request, pathname: string): Promise<Response | null> {
  if (pathname === ROUTES) {
    if (req.headers.get("Authorization") !== `Bearer ${config.SIMULATOR_API_KEY}`) return json({ error: { code: "unauthorized" } }, 401);
    if (req.method !== "POST") return json({ error: { code: "method_not_allowed" } }, 405);
    const body = (await req.json().catch(() => null)) as { domain?: unknown; port?: unknown } | null;
    const domain = typeof body?.domain === "string" ? body.domain.trim().toLowerCase() : "";
    const port = Number(body?.port);
    if (!domain || !Number.isInteger(port) || port < 1 || port > 65535) return json({ error: { code: "invalid", message: "domain and port (1-65535) required" } }, 400);
    routes.set(domain, port);
    return json({ data: { domain, port } });
  }
  if (pathname === REPORTS) {
    if (req.headers.get("Authorization") !== `Bearer ${config.SIMULATOR_API_KEY}`) return json({ error: { code: "unauthorized" } }, 401);
    return json({ data: { in_flight: reportsInFlight, waiting: reportsQueued, waiting_max: REPORTS_WAITING_MAX, intake_waiting: intakeWaiting.length } });
  }
  if (pathname === COUNTS) {
    if (req.headers.get("Authorization") !== `Bearer ${config.SIMULATOR_API_KEY}`) return json({ error: { code: "unauthorized" } }, 401);
    const domain = new URL(req.url).searchParams.get("domain")?.trim().toLowerCase();
    if (!domain) return json({ error: { code: "invalid", message: "domain required" } }, 400);
    const counts = await redis().hgetall(keys.simulatorMailCounts(domain));
    return json({ data: Object.fromEntries(Object.entries(counts).map(([a, n]) => [a, Number(n)])) });
  }
  if (pathname !== MESSAGES && !pathname.startsWith(`${MESSAGES}/`)) return null;
  if (req.method !== "GET") return json({ error: { code: "method_not_allowed" } }, 405);
  if (req.headers.get("Authorization") !== `Bearer ${config.SIMULATOR_API_KEY}`) return json({ error: { code: "unauthorized" } }, 401);
  if (pathname === MESSAGES) {
    const params = new URL(req.url).searchParams;
    const to = params.get("to")?.trim().toLowerCase() || null;
    const limit = Math.min(KEPT_MESSAGES, Math.max(1, Number(params.get("limit")) || 50));
    const ids = await redis().lrange(keys.simulatorMailIds(), 0, KEPT_MESSAGES - 1);
    const entries = ids.length ? await redis().hmget(keys.simulatorMailEntries(), ...ids) : [];
    const data = entries
      .filter((e): e is string => e !== null)
      .map((e) => JSON.parse(e) as PeerMessage)
      .filter((m) => !to || m.rcpt_to.some((r) => r.toLowerCase() === to))
      .slice(0, limit);
    return json({ data });
  }
  const id = decodeURIComponent(pathname.slice(MESSAGES.length + 1));
  const [entry, raw] = await redis().hmget(keys.simulatorMailEntries(), id, `${id}:raw`);
  if (!entry) return json({ error: { code: "not_found", message: "No message with this id is kept" } }, 404);
  return json({ data: { ...(JSON.parse(entry) as PeerMessage), raw } });
}
