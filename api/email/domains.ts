/**
 * Sending domains of the e-mail channel (issue 17, /mail/domains; ADR 036): the account registers
 * a domain, publishes the DNS records answered here, and the domain is validated by real DNS
 * look-ups (./dns.ts) — on demand (POST /email/domains/validate/{id}) and by the worker's schedule
 * (recheckDueDomains). Mail is sent only from a validated domain, DKIM-signed with its key.
 *
 * The records (EMAIL_HOST is the platform's mail host):
 * - SPF: the domain's one `v=spf1` TXT includes `_spf.<EMAIL_HOST>`;
 * - DKIM: `<selector>._domainkey.<domain>` TXT carries our public key (an RSA 2048 key made here
 *   per domain; the private key sealed at rest, never answered);
 * - DMARC: `_dmarc.<domain>` TXT is a `v=DMARC1` policy (any);
 * - return path: `bounces.<domain>` is a CNAME to EMAIL_HOST (bounces and reports come to us).
 * Validated when all four are right; a check DNS did not answer (timeout, SERVFAIL) changes no
 * status. Every query is scoped by the acting account.
 */
import { generateKeyPair } from "node:crypto";
import { promisify } from "node:util";
import { recordAudit } from "../audit/record";
import type { SignedInCtx } from "../lib/context";
import { seal, unseal } from "../lib/crypto";
import { env } from "../lib/env";
import { AppError } from "../lib/errors";
import { keyset, pageInput } from "../lib/page";
import { row, rows } from "../lib/sql";
import { validate } from "../lib/validate";
import { z } from "../lib/zod";
import { can } from "../policy/policy";
import { POSITION_SQL, timeIdCursor } from "../sms/cursor";
import { cname, type Lookup, txt } from "./dns";
import { domainSchema } from "./schemas";

/** How many domains an account may register. */
export const MAX_DOMAINS = 50;
export const DOMAIN_STATUSES = ["pending", "validated", "failed"] as const;
export type DomainStatus = (typeof DOMAIN_STATUSES)[number];
export const RECORD_PURPOSES = ["spf", "dkim", "dmarc", "return_path"] as const;
type Purpose = (typeof RECORD_PURPOSES)[number];
/** ok; missing (no such record); mismatch (there, but not ours); unreachable (DNS did not answer); unchecked (never looked up). */
export type RecordStatus = "ok" | "missing" | "mismatch" | "unreachable" | "unchecked";
type Check = { status: RecordStatus; found: string[] };

export type DnsRecord = { purpose: Purpose; type: "TXT" | "CNAME"; host: string; value: string; status: RecordStatus; found: string[] };
export type EmailDomain = {
  id: string;
  domain: string;
  status: DomainStatus;
  records: DnsRecord[];
  checked_at: Date | null;
  validated_at: Date | null;
  created_at: Date;
};
type Row = {
  id: string;
  account_id: string;
  domain: string;
  dkim_selector: string;
  dkim_public_key: string;
  status: DomainStatus;
  checks: Partial<Record<Purpose, Check>>;
  checked_at: Date | null;
  validated_at: Date | null;
  created_at: Date;
};
const COLUMNS = "id, account_id, domain, dkim_selector, dkim_public_key, status, checks, checked_at, validated_at, created_at";

const spfInclude = () => `_spf.${env().EMAIL_HOST}`;
/** What each record must hold, as the screen shows it to be published. */
function wanted(r: Pick<Row, "domain" | "dkim_selector" | "dkim_public_key">): Array<Omit<DnsRecord, "status" | "found">> {
  return [
    { purpose: "spf", type: "TXT", host: r.domain, value: `v=spf1 include:${spfInclude()} ~all` },
    { purpose: "dkim", type: "TXT", host: `${r.dkim_selector}._domainkey.${r.domain}`, value: `v=DKIM1; k=rsa; p=${r.dkim_public_key}` },
    { purpose: "dmarc", type: "TXT", host: `_dmarc.${r.domain}`, value: "v=DMARC1; p=none" },
    { purpose: "return_path", type: "CNAME", host: `bounces.${r.domain}`, value: env().EMAIL_HOST },
  ];
}

function view(r: Row): EmailDomain {
  return {
    id: r.id,
    domain: r.domain,
    status: r.status,
    records: wanted(r).map((w) => ({ ...w, status: r.checks[w.purpose]?.status ?? "unchecked", found: r.checks[w.purpose]?.found ?? [] })),
    checked_at: r.checked_at,
    validated_at: r.validated_at,
    created_at: r.created_at,
  };
}

function assertReach(ctx: SignedInCtx) {
  if (!can(ctx.actor, "/mail/domains")) throw new AppError("FORBIDDEN");
}

/** The host names the platform itself answers: never a customer's sending domain. */
function reserved(domain: string): boolean {
  const own = [env().EMAIL_HOST, env().UNSUBSCRIBE_HOST, ...(env().APP_URL ? [new URL(env().APP_URL!).hostname] : [])].map((h) => h.toLowerCase());
  return own.some((h) => domain === h || domain.endsWith(`.${h}`) || h.endsWith(`.${domain}`));
}

/** The form's schema with what only the server knows: the platform's own host names are not a customer's. */
const registerSchema = domainSchema.refine((v) => !reserved(v.domain), { message: "validation.emailDomainReserved", path: ["domain"] });

/** Registers a domain for the account: a DKIM key of its own, status pending until its DNS is checked. */
export async function registerEmailDomain(ctx: SignedInCtx, input: unknown): Promise<{ data: EmailDomain }> {
  assertReach(ctx);
  const { domain } = validate(registerSchema, input);
  const [{ n }] = await rows<{ n: number }>(`SELECT count(*)::int AS n FROM email_domains WHERE account_id = $1`, [ctx.actor.accountId]);
  if (n >= MAX_DOMAINS) throw new AppError("VALIDATION", { fields: { domain: [`validation.emailDomainLimit::${MAX_DOMAINS}`] } });
  const { publicKey, privateKey } = await promisify(generateKeyPair)("rsa", {
    modulusLength: 2048,
    publicKeyEncoding: { type: "spki", format: "der" },
    privateKeyEncoding: { type: "pkcs8", format: "pem" },
  });
  // A selector of ours, new per domain: `m` + the month + random, so a key can later be rolled under another.
  const selector = `m${new Date().toISOString().slice(0, 7).replace("-", "")}${Math.random().toString(36).slice(2, 8)}`;
  const created = await row<Row>(
    `INSERT INTO email_domains (account_id, domain, dkim_selector, dkim_public_key, dkim_private_key_sealed, created_by)
     VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (account_id, domain) DO NOTHING RETURNING ${COLUMNS}`,
    [ctx.actor.accountId, domain, selector, (publicKey as Buffer).toString("base64"), seal(privateKey as string), ctx.actor.userId],
  );
  if (!created) throw new AppError("DOMAIN_ALREADY_REGISTERED", { fields: { domain: ["errors.DOMAIN_ALREADY_REGISTERED"] } });
  await recordAudit(ctx, "email.domain_registered", { meta: { id: created.id, domain } });
  return { data: view(created) };
}

const listSchema = z.object({ status: z.enum(DOMAIN_STATUSES, "validation.option").optional(), ...pageInput });

/** The account's domains (of one status, when given), oldest first (created_at, id). */
export async function listEmailDomains(ctx: SignedInCtx, input: unknown): Promise<{ data: EmailDomain[]; next_cursor: string | null }> {
  if (!can(ctx.actor, "/mail/domains") && !can(ctx.actor, "/mail/send")) throw new AppError("FORBIDDEN");
  const { limit, cursor, status } = validate(listSchema, input ?? {});
  const after = timeIdCursor(cursor);
  const found = await rows<Row & { position: string }>(
    `SELECT ${COLUMNS}, ${POSITION_SQL("created_at")} AS position FROM email_domains
      WHERE account_id = $1 AND ($3::text IS NULL OR status = $3)
        ${after ? "AND (created_at, id) > ($4::timestamptz, $5::uuid)" : ""}
      ORDER BY created_at, id LIMIT $2`,
    [ctx.actor.accountId, limit + 1, status ?? null, ...(after ?? [])],
  );
  return keyset(
    found,
    limit,
    (r) => [r.position, r.id],
    ({ position: _p, ...r }) => view(r),
  );
}

async function ownDomain(accountId: string, id: string): Promise<Row> {
  const found = /^[0-9a-f-]{36}$/i.test(id) ? await row<Row>(`SELECT ${COLUMNS} FROM email_domains WHERE id = $1 AND account_id = $2`, [id, accountId]) : null;
  if (!found) throw new AppError("NOT_FOUND");
  return found;
}

export async function getEmailDomain(ctx: SignedInCtx, id: string): Promise<{ data: EmailDomain }> {
  assertReach(ctx);
  return { data: view(await ownDomain(ctx.actor.accountId, id)) };
}

export async function deleteEmailDomain(ctx: SignedInCtx, id: string): Promise<{ deleted: number }> {
  assertReach(ctx);
  const gone = /^[0-9a-f-]{36}$/i.test(id)
    ? await row<{ domain: string }>(`DELETE FROM email_domains WHERE id = $1 AND account_id = $2 RETURNING domain`, [id, ctx.actor.accountId])
    : null;
  if (!gone) throw new AppError("NOT_FOUND");
  await recordAudit(ctx, "email.domain_deleted", { meta: { id, domain: gone.domain } });
  return { deleted: 1 };
}

function judge(lookup: Lookup, ok: (values: string[]) => boolean): Check {
  if (lookup.kind === "unreachable") return { status: "unreachable", found: [] };
  if (lookup.kind === "none") return { status: "missing", found: [] };
  return { status: ok(lookup.values) ? "ok" : "mismatch", found: lookup.values.slice(0, 10).map((v) => v.slice(0, 2048)) };
}

/** Looks the domain's four records up (side by side) and judges each. */
async function checkRecords(r: Row): Promise<Record<Purpose, Check>> {
  const [spf, dkim, dmarc, returnPath] = await Promise.all([
    txt(r.domain),
    txt(`${r.dkim_selector}._domainkey.${r.domain}`),
    txt(`_dmarc.${r.domain}`),
    cname(`bounces.${r.domain}`),
  ]);
  const include = spfInclude();
  // SPF: exactly one v=spf1 record (two are a permanent error, RFC 7208 4.5), including ours.
  const spfRecords = (values: string[]) => values.filter((v) => /^v=spf1(\s|$)/i.test(v.trim()));
  const spfCheck = judge(spf, (values) => {
    const own = spfRecords(values);
    return own.length === 1 && own[0].toLowerCase().split(/\s+/).includes(`include:${include}`);
  });
  // Only the v=spf1 records are the SPF answer: other TXT records of the domain (site verifications…) are not shown as found.
  if (spf.kind === "found") spfCheck.found = spfRecords(spf.values);
  if (spf.kind === "found" && spfCheck.found.length === 0) spfCheck.status = "missing";
  const tag = (record: string, name: string) =>
    record
      .split(";")
      .map((p) => p.trim())
      .find((p) => p.toLowerCase().startsWith(`${name}=`))
      ?.slice(name.length + 1)
      .replace(/\s+/g, "");
  return {
    spf: spfCheck,
    dkim: judge(dkim, (values) => values.some((v) => tag(v, "p") === r.dkim_public_key)),
    dmarc: judge(dmarc, (values) => values.some((v) => /^v=DMARC1\s*(;|$)/i.test(v.trim()))),
    return_path: judge(returnPath, (values) => values.includes(env().EMAIL_HOST)),
  };
}

/** Checks the domain's DNS now and records the outcome: validated, failed, or (DNS did not answer) as it was. */
async function checkDomain(r: Row): Promise<Row> {
  const checks = await checkRecords(r);
  const all = Object.values(checks);
  const status: DomainStatus = all.some((c) => c.status === "unreachable") ? r.status : all.every((c) => c.status === "ok") ? "validated" : "failed";
  const updated = await row<Row>(
    `UPDATE email_domains SET checks = $3::jsonb, status = $4, checked_at = now(),
       validated_at = CASE WHEN $4 = 'validated' THEN now() ELSE validated_at END, updated_at = now()
     WHERE id = $1 AND account_id = $2 RETURNING ${COLUMNS}`,
    [r.id, r.account_id, JSON.stringify(checks), status],
  );
  return updated ?? r;
}

/** POST /email/domains/validate/{id}: the records looked up now; the answer is the domain as it stands after. */
export async function validateEmailDomain(ctx: SignedInCtx, id: string): Promise<{ data: EmailDomain }> {
  assertReach(ctx);
  const checked = await checkDomain(await ownDomain(ctx.actor.accountId, id));
  if (checked.status !== "validated") await recordAudit(ctx, "email.domain_check_failed", { meta: { id, domain: checked.domain } });
  else await recordAudit(ctx, "email.domain_validated", { meta: { id, domain: checked.domain } });
  return { data: view(checked) };
}

/**
 * The worker's schedule: domains of every account whose last check is older than
 * EMAIL_DOMAIN_RECHECK_MS (a pending or failed one: a tenth of it — someone is probably
 * publishing its records; a new one is first checked that long after it was registered), claimed by moving checked_at first so that workers side by
 * side check each once. Answers how many were checked.
 */
export async function recheckDueDomains(limit = 20): Promise<number> {
  const every = env().EMAIL_DOMAIN_RECHECK_MS;
  const due = await rows<Row>(
    `UPDATE email_domains SET checked_at = now() WHERE id IN (
       SELECT id FROM email_domains
        WHERE COALESCE(checked_at, created_at) < now() - (CASE WHEN status = 'validated' THEN $1::bigint ELSE $2::bigint END) * interval '1 millisecond'
        ORDER BY checked_at NULLS FIRST LIMIT $3 FOR UPDATE SKIP LOCKED)
     RETURNING ${COLUMNS}`,
    [every, Math.max(1000, Math.round(every / 10)), limit],
  );
  for (const r of due) await checkDomain(r).catch((e) => console.warn(`email domain ${r.domain}: ${(e as Error).message}`));
  return due.length;
}

/**
 * The DKIM key of the account's validated domain `domain` (the adapter signs every message with it),
 * or null when the account has no such validated domain any more (removed, or failed a recheck).
 */
export async function signingKey(accountId: string, domain: string): Promise<{ selector: string; privateKey: string } | null> {
  const found = await row<{ dkim_selector: string; dkim_private_key_sealed: string }>(
    `SELECT dkim_selector, dkim_private_key_sealed FROM email_domains WHERE account_id = $1 AND domain = $2 AND status = 'validated'`,
    [accountId, domain],
  );
  return found ? { selector: found.dkim_selector, privateKey: unseal(found.dkim_private_key_sealed) } : null;
}
