/**
 * The demo account's sending domain, for a new user trying `npm start` (issue 17): in development
 * with the simulator, the worker registers DEMO_EMAIL_DOMAIN for the demo account through the same
 * use-case as /mail/domains, publishes its four records on the simulator's DNS peer
 * (POST /email/_sim/dns) and validates it with the same DNS queries as any domain — so e-mail can
 * be sent from it at once (to the local SMTP peer, seen at /dev/mailbox/email). On a later start
 * the records are published again (the zone may be gone with Redis) and the domain rechecked.
 * The demo account also gets templates of its own made from the platform's library (ADR 037), so
 * /mail/send can pick one at once.
 */
import { env } from "../lib/env";
import { row, rows } from "../lib/sql";
import { demoOwner } from "../whatsapp/demo";
import { getEmailDomain, registerEmailDomain, validateEmailDomain } from "./domains";
import { ensurePlatformEmailLibrary } from "./libs";
import { createEmailTemplate } from "./templates";

/** The demo's sending domain (`.test` is reserved for testing: nobody else can own it). */
export const DEMO_EMAIL_DOMAIN = "lojademo.test";

/** Whether this is `npm start`'s development platform with the simulator (its DNS peer answers the demo domain). */
export function usesLocalPeers(): boolean {
  const e = env();
  return e.NODE_ENV === "development" && Boolean(e.SIMULATOR_URL && e.SIMULATOR_API_KEY) && e.EMAIL_DNS_SERVERS.length === 0;
}

async function publish(name: string, type: "TXT" | "CNAME", values: string[]) {
  const res = await fetch(new URL("/email/_sim/dns", env().SIMULATOR_URL), {
    method: "POST",
    headers: { Authorization: `Bearer ${env().SIMULATOR_API_KEY}`, "Content-Type": "application/json" },
    body: JSON.stringify({ name, type, values }),
    signal: AbortSignal.timeout(5000),
  });
  if (!res.ok) throw new Error(`simulator DNS peer answered ${res.status}`);
}

/** Registers, publishes and validates the demo domain; answers its status (or "skipped"). */
export async function ensureDemoEmailDomain(): Promise<string> {
  if (!usesLocalPeers()) return "skipped";
  const ctx = await demoOwner();
  if (!ctx) return "skipped";
  const existing = await row<{ id: string }>(`SELECT id FROM email_domains WHERE account_id = $1 AND domain = $2`, [ctx.actor.accountId, DEMO_EMAIL_DOMAIN]);
  const domain = existing ? (await getEmailDomain(ctx, existing.id)).data : (await registerEmailDomain(ctx, { domain: DEMO_EMAIL_DOMAIN })).data;
  for (const r of domain.records) await publish(r.host, r.type, [r.value]);
  const { data } = await validateEmailDomain(ctx, domain.id);
  if (data.status !== "validated") throw new Error(`demo domain ${DEMO_EMAIL_DOMAIN} is ${data.status}: ${data.records.map((r) => `${r.purpose} ${r.status}`).join(", ")}`);
  return data.status;
}

/**
 * The demo account's e-mail templates: one from each entry of the platform's library (seeded by
 * seeds/demo.ts; ensured here too), made through the same use-case as /mail/templates/create.
 * A name the account already has is left as it is (idempotent; a template the user changed stays).
 * Answers how many were made.
 */
export async function ensureDemoEmailTemplates(): Promise<number> {
  const ctx = await demoOwner();
  if (!ctx) return 0;
  await ensurePlatformEmailLibrary();
  const libs = await rows<{ name: string; subject: string; mjml: string; text: string | null }>(
    `SELECT l.name, l.subject, l.mjml, l.text FROM email_template_libs l
      WHERE l.account_id IS NULL AND NOT EXISTS (SELECT 1 FROM email_templates t WHERE t.account_id = $1 AND lower(t.name) = lower(l.name))
      ORDER BY l.name`,
    [ctx.actor.accountId],
  );
  for (const lib of libs) await createEmailTemplate(ctx, { name: lib.name, subject: lib.subject, mjml: lib.mjml, text: lib.text ?? undefined, active: true });
  return libs.length;
}
