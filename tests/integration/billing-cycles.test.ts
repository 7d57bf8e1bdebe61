/**
 * Postpaid cycles and overdue invoices (issue 18, ADR 044), with the clock under the test's control:
 * the worker's job (api/billing/cycles.ts runBilling) runs in separate processes
 * (tests/support/billing-run.ts) at the instant each step chooses.
 *
 *  - a weekly cycle closes at the São Paulo midnight (03:00 UTC): not at 02:59:59.999Z, at 03:00Z;
 *    a leg at 02:59:59Z is in the closing period, one at 03:00:01Z in the next; two closes at once
 *    write one invoice; its lines (per kind) sum to its amount; a period without usage has none;
 *  - a monthly cycle ends on the 1st of the next month, São Paulo midnight, in 31- and 30-day months;
 *  - an invoice unpaid OVERDUE_GRACE_DAYS after its due date fails and suspends the account: sends
 *    are refused with the reason, sign-in still works and lands on the invoices, and paying the
 *    failed invoice through the provider's signed webhook makes it paid and the account active.
 *
 * Every cycle here lies years ahead of the real clock, so the run's own worker (which closes with
 * the wall clock) never touches these accounts. Usage is written as ledger legs dated where the
 * test needs them (the legs' trigger dates them now(), so they are written with triggers off and
 * the balance moved with them: the ledger still proves, ledger_mismatches() is empty).
 */
import { spawn } from "node:child_process";
import { resolve } from "node:path";
import { beforeAll, describe, expect, inject, it } from "vitest";
import { signWebhook } from "../../api/channels/webhook-signature";
import { api, login } from "../support/api";
import { pdfText } from "../support/pdf";
import { db, query } from "../support/db";
import { balanceOf } from "../support/factories";
import { location, signedInCustomer, signIn, type WebCustomer } from "../support/web";

const root = resolve(__dirname, "..", "..");

type Closed = { account_id: string; period_start: string; period_end: string; invoice_id: string | null; amount: number };
type Report = { closed: Closed[]; overdue: Array<{ invoice_id: string; account_id: string; kind: string; suspended: boolean }> };

/** One run of the billing job at `now`, in a process of its own (as a worker runs it). */
function runBilling(now: string): Promise<Report> {
  return new Promise((done, fail) => {
    const child = spawn(resolve(root, "node_modules", ".bin", "bun"), ["tests/support/billing-run.ts", now], {
      cwd: root,
      env: {
        ...process.env,
        NODE_ENV: "test",
        DATABASE_URL: inject("databaseUrl"),
        REDIS_URL: inject("redisUrl"),
        REDIS_PREFIX: inject("redisPrefix"),
        SIMULATOR_URL: inject("simulatorUrl"),
        SIMULATOR_API_KEY: inject("simulatorApiKey"),
        SIMULATOR_WEBHOOK_SECRET: inject("simulatorWebhookSecret"),
      },
    });
    let out = "";
    child.stdout.on("data", (c) => (out += c));
    child.stderr.on("data", (c) => process.stderr.write(c));
    child.on("close", (code) => (code === 0 ? done(JSON.parse(out.trim().split("\n").pop()!)) : fail(new Error(`billing run exited ${code}`))));
  });
}

const mine = (r: Report, accountId: string) => r.closed.filter((c) => c.account_id === accountId);

/** A posting of `kind` dated `at`: the customer leg `delta` (negative: usage; positive: a refund) and its revenue leg, the balance moved by delta. */
async function usage(accountId: string, kind: "message" | "refund" | "plan_fee" | "agent", delta: number, at: string) {
  const c = await db().connect();
  try {
    await c.query("BEGIN");
    await c.query("SET LOCAL session_replication_role = replica");
    await c.query(
      `INSERT INTO ledger_entries (account_id, posting, book, amount, currency, kind, reference, created_at)
       SELECT $1, p, leg.book, leg.sign * $2::bigint, 'BRL', $3, 'test:cycles', $4 FROM gen_random_uuid() p, (VALUES ('customer', 1), ('revenue', -1)) leg(book, sign)`,
      [accountId, delta, kind, at],
    );
    await c.query("UPDATE account_balances SET balance = balance + $2 WHERE account_id = $1", [accountId, delta]);
    await c.query("COMMIT");
  } catch (e) {
    await c.query("ROLLBACK");
    throw e;
  } finally {
    c.release();
  }
}

const cycleInvoices = (accountId: string) =>
  query<{ id: string; amount: string; status: string; period_start: Date; period_end: Date; due_at: Date; provider_charge_id: string }>(
    `SELECT id, amount, status, period_start, period_end, due_at, provider_charge_id FROM invoices WHERE account_id = $1 AND kind = 'cycle' ORDER BY period_start`,
    [accountId],
  );
const cycleStart = async (accountId: string) =>
  (await query<{ cycle_started_at: Date }>(`SELECT cycle_started_at FROM accounts WHERE id = $1`, [accountId]))[0].cycle_started_at.toISOString();

/** Posts a payment event to our webhook, signed with the simulator provider's secret. */
async function postEvent(event: unknown) {
  const raw = JSON.stringify(event);
  const res = await fetch(new URL("/api/webhooks/payments/simulator", inject("apiUrl")), {
    method: "POST",
    headers: { "Content-Type": "application/json", ...signWebhook(inject("simulatorWebhookSecret"), `evt_cycles_${Math.random().toString(36).slice(2)}`, raw) },
    body: raw,
  });
  return { status: res.status, body: (await res.json()) as { result: string; invoice_id: string } };
}

let weekly: WebCustomer;
let token: string;

beforeAll(async () => {
  weekly = await signedInCustomer("cycles", { balance: 0 });
  token = (await login(weekly.email, "Demo!Mensa#2026")).token;
  // Postpaid, weekly, the open cycle from Saturday 2031-02-22 00:00 in São Paulo (03:00 UTC) to 2031-03-01 00:00.
  await query(`UPDATE accounts SET billing_cycle = 'weekly', cycle_started_at = '2031-02-22T03:00:00Z', credit_limit = 1000000 WHERE id = $1`, [weekly.accountId]);
});

describe("postpaid cycles", () => {
  it("closes at the São Paulo midnight, once, with the period's usage on each side of the boundary", async () => {
    const a = weekly.accountId;
    await usage(a, "message", -500, "2031-02-25T12:00:00Z");
    await usage(a, "plan_fee", -1000, "2031-02-22T03:00:00Z"); // the first instant is in
    await usage(a, "refund", 100, "2031-02-27T18:30:00Z");
    await usage(a, "message", -300, "2031-03-01T02:59:59Z"); // 23:59:59 of the last day, São Paulo: in
    await usage(a, "message", -700, "2031-03-01T03:00:01Z"); // 00:00:01 of the next cycle: out
    await usage(a, "message", -50, "2031-02-22T02:59:59Z"); // before the cycle: out

    // A millisecond before the São Paulo midnight nothing is due.
    expect(mine(await runBilling("2031-03-01T02:59:59.999Z"), a)).toEqual([]);
    expect(await cycleInvoices(a)).toEqual([]);

    // At the midnight, two closers at once (two worker processes): one invoice for the period.
    const both = await Promise.all([runBilling("2031-03-01T03:00:00Z"), runBilling("2031-03-01T03:00:00Z")]);
    const closed = both.flatMap((r) => mine(r, a));
    expect(closed).toHaveLength(1);
    expect(closed[0]).toMatchObject({ period_start: "2031-02-22T03:00:00.000Z", period_end: "2031-03-01T03:00:00.000Z", amount: 1700 });
    const [invoice, ...more] = await cycleInvoices(a);
    expect(more).toEqual([]);
    expect(invoice).toMatchObject({ id: closed[0].invoice_id, amount: "1700", status: "pending" });
    expect(invoice.period_start.toISOString()).toBe("2031-02-22T03:00:00.000Z");
    expect(invoice.period_end.toISOString()).toBe("2031-03-01T03:00:00.000Z");
    // Due INVOICE_DUE_DAYS (10) after the period.
    expect(invoice.due_at.toISOString()).toBe("2031-03-11T03:00:00.000Z");
    expect(await cycleStart(a)).toBe("2031-03-01T03:00:00.000Z");
    // A third run of the same instant changes nothing.
    expect(mine(await runBilling("2031-03-01T03:00:00Z"), a)).toEqual([]);

    // Through the API: the period, the lines (per kind) summing to the amount, a Pix charge.
    const detail = await api(`/api/invoices/${invoice.id}`, { token });
    expect(detail.status, JSON.stringify(detail.body)).toBe(200);
    expect(detail.body.data).toMatchObject({
      kind: "cycle",
      status: "pending",
      amount: 1700,
      period_start: "2031-02-22T03:00:00.000Z",
      period_end: "2031-03-01T03:00:00.000Z",
      lines: [
        { item: "message", quantity: 2, amount: 800 },
        { item: "refund", quantity: 1, amount: -100 },
        { item: "plan_fee", quantity: 1, amount: 1000 },
      ],
    });
    expect(detail.body.data.lines.reduce((s: number, l: { amount: number }) => s + l.amount, 0)).toBe(detail.body.data.amount);
    expect(detail.body.data.pix.payload).toMatch(/^000201/);
    expect((await api("/api/invoices", { token })).body.data.map((i: { id: string; kind: string }) => [i.id, i.kind])).toContainEqual([invoice.id, "cycle"]);

    // The screen and the PDF: the period (its last day is the 28th) and the lines.
    const screen = await weekly.client.get(`/invoice/${invoice.id}`);
    expect(screen.status).toBe(200);
    const html = await screen.text();
    expect(html).toContain("22/02/31 a 28/02/31"); // the app's short date (remix/app/lib/format.ts)
    expect(html).toContain("Envios de mensagens");
    expect(html).toContain("Estornos de envios");
    const list = await (await weekly.client.get("/invoices")).text();
    expect(list).toContain("Ciclo");
    const pdf = pdfText(
      Buffer.from(await (await fetch(new URL(`/api/invoices/${invoice.id}/pdf`, inject("apiUrl")), { headers: { Authorization: `Bearer ${token}` } })).arrayBuffer()),
    );
    for (const shown of [
      "Período: 22/02/2031 a 28/02/2031",
      "Envios de mensagens (2)",
      "R$ 8,00",
      "Estornos de envios (1)",
      "-R$ 1,00",
      "Mensalidades de planos (1)",
      "R$ 17,00",
    ]) {
      expect(pdf, shown).toContain(shown);
    }

    // Two weeks later: the next period has the leg of 03:00:01 (its own invoice), the one after has no usage (none), the cycle moves on.
    const later = mine(await runBilling("2031-03-15T03:00:00Z"), a);
    expect(later.map((c) => [c.period_start, c.amount, c.invoice_id !== null])).toEqual([
      ["2031-03-01T03:00:00.000Z", 700, true],
      ["2031-03-08T03:00:00.000Z", 0, false],
    ]);
    expect((await cycleInvoices(a)).map((i) => Number(i.amount))).toEqual([1700, 700]);
    expect(await cycleStart(a)).toBe("2031-03-15T03:00:00.000Z");
    expect(await query("SELECT * FROM ledger_mismatches() WHERE account_id = $1", [a])).toEqual([]);
  });

  it("ends a monthly cycle at the São Paulo midnight of the 1st, in a 31-day and a 30-day month", async () => {
    const { accountId: m } = await signedInCustomer("cyclesmonth", { balance: 0 });
    // Years ahead of the weekly account's clock, and of the real one: January 2030 (31 days), then April 2030 (30 days).
    await query(`UPDATE accounts SET billing_cycle = 'monthly', cycle_started_at = '2030-01-01T03:00:00Z' WHERE id = $1`, [m]);
    await usage(m, "message", -1234, "2030-01-31T23:00:00Z"); // 20:00 on the 31st in São Paulo
    expect(mine(await runBilling("2030-01-31T03:00:00Z"), m)).toEqual([]); // 30 days in: not yet
    expect(mine(await runBilling("2030-02-01T02:59:59.999Z"), m)).toEqual([]);
    expect(mine(await runBilling("2030-02-01T03:00:00Z"), m)).toMatchObject([{ period_start: "2030-01-01T03:00:00.000Z", period_end: "2030-02-01T03:00:00.000Z", amount: 1234 }]);

    await query(`UPDATE accounts SET cycle_started_at = '2030-04-01T03:00:00Z' WHERE id = $1`, [m]);
    await usage(m, "agent", -900, "2030-05-01T02:30:00Z"); // 23:30 on April 30th in São Paulo
    expect(mine(await runBilling("2030-05-01T02:59:59.999Z"), m)).toEqual([]);
    expect(mine(await runBilling("2030-05-01T03:00:00Z"), m)).toMatchObject([{ period_start: "2030-04-01T03:00:00.000Z", period_end: "2030-05-01T03:00:00.000Z", amount: 900 }]);
    expect(await cycleStart(m)).toBe("2030-05-01T03:00:00.000Z");
  });

  it("fails an invoice unpaid past its grace and suspends the account: sends refused, sign-in and paying still work, paying reactivates", async () => {
    const a = weekly.accountId;
    const [first] = await cycleInvoices(a);
    // Due 2031-03-11 03:00Z; OVERDUE_GRACE_DAYS (5) later is 2031-03-16 03:00Z.
    const before = await runBilling("2031-03-16T02:59:59.999Z");
    expect(before.overdue.filter((o) => o.account_id === a)).toEqual([]);
    const at = await runBilling("2031-03-16T03:00:00Z");
    expect(at.overdue.filter((o) => o.account_id === a)).toEqual([{ invoice_id: first.id, account_id: a, kind: "cycle", suspended: true }]);
    expect(await query(`SELECT status FROM invoices WHERE id = $1`, [first.id])).toEqual([{ status: "fail" }]);
    expect(await query(`SELECT status FROM accounts WHERE id = $1`, [a])).toEqual([{ status: "suspended" }]);

    // Sends are refused, saying why.
    const send = await api("/api/sms/messages", { token, body: { to: ["5511999990000"], body: "Oi" }, lang: "pt-BR" });
    expect(send.status).toBe(403);
    expect(send.body.error.code).toBe("CLIENT_INACTIVE");
    expect(send.body.error.message).toBe("Conta suspensa por fatura em aberto: pague-a em Faturas para voltar a enviar");
    expect((await api("/api/sms/campaigns", { token, lang: "en" })).body.error.message).toMatch(/^Account suspended for an unpaid invoice/);
    // Signing in still works (API and web), and reaches the invoices, still payable.
    const again = (await login(weekly.email, "Demo!Mensa#2026")).token;
    const listed = await api("/api/invoices", { token: again });
    expect(listed.status).toBe(200);
    const failed = (await api(`/api/invoices/${first.id}`, { token: again })).body.data;
    expect(failed).toMatchObject({ status: "fail" });
    expect(failed.pix.payload).toMatch(/^000201/);
    const web = await signIn(weekly.email);
    const home = await web.get("/");
    expect(home.status).toBe(302);
    expect(location(home)).toBe("/invoices");
    expect(location(await web.get("/sms/send"))).toBe("/invoices");
    const page = await web.get("/invoices");
    expect(page.status).toBe(200);
    expect(await page.text()).toContain("A conta está suspensa por uma fatura em aberto");
    expect((await web.get(`/invoice/${first.id}`)).status).toBe(200);
    // The billing overview too, saying why (web and API); the plans are not reachable.
    const billing = await web.get("/billing");
    expect(billing.status).toBe(200);
    expect(await billing.text()).toContain("A conta está suspensa por uma fatura não paga");
    expect((await api("/api/billing", { token: again })).body).toMatchObject({ status: "suspended", next_invoice: { id: first.id, status: "fail" } });
    expect(location(await web.get("/billing/upgrade"))).toBe("/invoices");

    // Paid through the provider's signed webhook: paid, credited once, the account active again.
    const balance = await balanceOf(a);
    const paid = await postEvent({
      id: `evt_cycle_${first.id.slice(0, 8)}`,
      type: "charge.paid",
      data: { charge_id: first.provider_charge_id, amount: 1700, occurred_at: "2031-03-17T12:00:00Z" },
    });
    expect(paid).toEqual({ status: 200, body: { result: "credited", invoice_id: first.id } });
    expect(await query(`SELECT status FROM invoices WHERE id = $1`, [first.id])).toEqual([{ status: "paid" }]);
    expect(await query(`SELECT status, billing_suspended_at FROM accounts WHERE id = $1`, [a])).toEqual([{ status: "active", billing_suspended_at: null }]);
    expect(await balanceOf(a)).toBe(balance + 1700);
    expect(
      await query<{ amount: number }>(`SELECT amount::int AS amount FROM ledger_entries WHERE account_id = $1 AND book = 'customer' AND kind = 'topup' AND reference = $2`, [
        a,
        `invoice:${first.id}`,
      ]),
    ).toEqual([{ amount: 1700 }]);
    const unblocked = await api("/api/sms/campaigns", { token: again });
    expect(unblocked.status).toBe(200);
    expect(await query("SELECT * FROM ledger_mismatches() WHERE account_id = $1", [a])).toEqual([]);
  });
});
