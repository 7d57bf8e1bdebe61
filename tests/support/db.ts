/** Direct reads of the run's database (for facts a client cannot see, like the mail outbox). */
import pg from "pg";
import { inject } from "vitest";
import { replicaCaughtUp } from "./replica-wait";

let pool: pg.Pool | undefined;
export function db() {
  pool ??= new pg.Pool({ connectionString: inject("databaseUrl"), max: 3 });
  return pool;
}

export async function query<T = Record<string, unknown>>(sql: string, params: unknown[] = []) {
  const rows = (await db().query(sql, params)).rows as T[];
  // A pass with a read replica: what a test writes here is on the replica before the test reads a screen.
  await replicaCaughtUp(db());
  return rows;
}

/** The newest e-mail sent to `to`, waiting up to `ms` for it. */
export async function lastMailTo(to: string, ms = 5000) {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    const [row] = await query<{ subject: string; text_body: string; html: string; status: string; created_at: Date }>(
      "SELECT subject, text_body, html, status, created_at FROM outbound_emails WHERE to_address = $1 ORDER BY created_at DESC LIMIT 1",
      [to.toLowerCase()],
    );
    if (row) return row;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`no e-mail to ${to}`);
}

/** The path of the first link in an e-mail that starts with `prefix` (e.g. "/email-verify/"). */
export function linkIn(mail: { text_body: string }, prefix: string) {
  const m = mail.text_body.match(new RegExp(`https?://[^\\s]+(${prefix.replace(/\//g, "\\/")}[^\\s]+)`));
  if (!m) throw new Error(`no ${prefix} link in mail:\n${mail.text_body}`);
  return m[1];
}

export function uniqueEmail(tag = "user") {
  return `${tag}.${Date.now().toString(36)}${Math.random().toString(36).slice(2, 7)}@test.example`;
}
