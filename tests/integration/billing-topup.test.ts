/**
 * Top-ups paid by Pix through the simulator's payment provider (issue 18, ADR 043): POST
 * /api/invoices creates a pending invoice with the provider's BR Code (read back by an independent
 * parser, pix-utils); paying on the provider's own page makes it paid and credits the balance
 * through the ledger exactly once (the provider's signed event; a replay, a second event, a second
 * press of "Pagar" change nothing); a wrongly signed or unknown-charge event is refused and stores
 * nothing; amounts outside the limits are refused with the field named.
 */
import { PDFDocument } from "pdf-lib";
import { hasError, parsePix } from "pix-utils";
import { beforeAll, describe, expect, inject, it } from "vitest";
import { signWebhook } from "../../api/channels/webhook-signature";
import { api, login, registerPerson, type Person } from "../support/api";
import { pdfText } from "../support/pdf";
import { query } from "../support/db";
import { balanceOf, setAccount } from "../support/factories";

let person: Person;
let token: string;

beforeAll(async () => {
  person = await registerPerson("topup");
  token = (await login(person.email, person.password)).token;
  await setAccount(person.accountId, { balance: 100 });
});

/** Posts a payment event to our webhook, signed with `secret` (the simulator's by default). */
async function postEvent(event: unknown, secret = inject("simulatorWebhookSecret")) {
  const raw = JSON.stringify(event);
  const res = await fetch(new URL("/api/webhooks/payments/simulator", inject("apiUrl")), {
    method: "POST",
    headers: { "Content-Type": "application/json", ...signWebhook(secret, `evt_test_${Math.random().toString(36).slice(2)}`, raw) },
    body: raw,
  });
  return { status: res.status, body: (await res.json()) as any };
}

const ledgerOf = (accountId: string) =>
  query<{ kind: string; book: string; amount: number; reference: string | null }>(
    `SELECT kind, book, amount::int AS amount, reference FROM ledger_entries WHERE account_id = $1 AND kind = 'topup' ORDER BY id`,
    [accountId],
  );

describe("top-up by Pix", () => {
  it("creates a pending invoice with a valid BR Code; paying on the provider's page credits the balance once", async () => {
    const created = await api("/api/invoices", { token, body: { amount: 5000 } });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const invoice = created.body.data;
    expect(created.headers.get("location")).toBe(`/api/invoices/${invoice.id}`);
    expect(invoice).toMatchObject({ kind: "topup", status: "pending", amount: 5000, currency: "BRL", paid_at: null });
    // The BR Code, read by an independent parser: amount in reais, our txid, CRC valid.
    const parsed = parsePix(invoice.pix.payload);
    expect(hasError(parsed)).toBe(false);
    expect(parsed).toMatchObject({ transactionAmount: 50, txid: invoice.pix.txid });
    expect((await api(`/api/invoices/${invoice.id}`, { token })).body.data.pix.payload).toBe(invoice.pix.payload);
    expect((await api("/api/invoices", { token })).body.data.map((i: { id: string }) => i.id)).toContain(invoice.id);

    // The payer's page, then "Pagar" (a plain form post, as a browser without JavaScript sends it).
    const page = await fetch(invoice.pix.pay_url);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain("R$ 50,00");
    expect(html).toContain('<form method="post"');
    const paid = await fetch(invoice.pix.pay_url, { method: "POST" });
    expect(await paid.text()).toContain("Pagamento confirmado");

    expect(await balanceOf(person.accountId)).toBe(100 + 5000);
    const after = (await api(`/api/invoices/${invoice.id}`, { token })).body.data;
    expect(after).toMatchObject({ status: "paid", pix: null });
    expect(after.paid_at).not.toBeNull();
    expect(await ledgerOf(person.accountId)).toEqual([
      { kind: "topup", book: "customer", amount: 5000, reference: `invoice:${invoice.id}` },
      { kind: "topup", book: "payments", amount: -5000, reference: `invoice:${invoice.id}` },
    ]);

    // Pressing "Pagar" again re-sends the same event: stored once, credited once.
    await fetch(invoice.pix.pay_url, { method: "POST" });
    const [{ provider_charge_id: chargeId }] = await query<{ provider_charge_id: string }>(`SELECT provider_charge_id FROM invoices WHERE id = $1`, [invoice.id]);
    const [stored] = await query<{ event_id: string; n: number }>(`SELECT min(event_id) AS event_id, count(*)::int AS n FROM payment_events WHERE invoice_id = $1`, [invoice.id]);
    expect(stored.n).toBe(1);
    // The same event replayed (same id): duplicate; another event for the paid charge: already settled.
    const replay = await postEvent({ id: stored.event_id, type: "charge.paid", data: { charge_id: chargeId, amount: 5000, occurred_at: new Date().toISOString() } });
    expect(replay).toEqual({ status: 200, body: { result: "duplicate", invoice_id: invoice.id } });
    const second = await postEvent({ id: "evt_other", type: "charge.paid", data: { charge_id: chargeId, amount: 5000, occurred_at: new Date().toISOString() } });
    expect(second.body).toEqual({ result: "already_settled", invoice_id: invoice.id });
    expect(await balanceOf(person.accountId)).toBe(100 + 5000);
    expect(await ledgerOf(person.accountId)).toHaveLength(2);
    expect(await query("SELECT * FROM ledger_mismatches() WHERE account_id = $1", [person.accountId])).toEqual([]);

    // Its PDF: a real document (pdf-lib reads it back), the account, the item, the total, paid.
    await query(`UPDATE accounts SET street = 'Rua Augusta, 1500', district = 'Consolação', city = 'São Paulo', province = 'SP', postal_code = '01304-001' WHERE id = $1`, [
      person.accountId,
    ]);
    const file = await fetch(new URL(`/api/invoices/${invoice.id}/pdf`, inject("apiUrl")), { headers: { Authorization: `Bearer ${token}` } });
    expect(file.status).toBe(200);
    expect(file.headers.get("content-type")).toBe("application/pdf");
    expect(file.headers.get("content-disposition")).toMatch(/^attachment; filename="fatura-[0-9a-f]{8}\.pdf"$/);
    const bytes = Buffer.from(await file.arrayBuffer());
    expect(bytes.subarray(0, 5).toString()).toBe("%PDF-");
    const doc = await PDFDocument.load(bytes);
    expect(doc.getPageCount()).toBe(1);
    expect(doc.getTitle()).toBe(`Fatura ${invoice.id}`);
    const text = pdfText(bytes);
    for (const shown of [
      `Fatura ${invoice.id}`,
      "Situação: Paga",
      person.company,
      "Rua Augusta, 1500, Consolação, São Paulo - SP, CEP 01304-001",
      "Recarga de saldo por Pix",
      "R$ 50,00",
      "Total",
    ]) {
      expect(text, shown).toContain(shown);
    }
  });

  it("refuses a wrongly signed event and one for an unknown charge, storing nothing", async () => {
    const created = (await api("/api/invoices", { token, body: { amount: 1000 } })).body.data;
    const [{ provider_charge_id: chargeId }] = await query<{ provider_charge_id: string }>(`SELECT provider_charge_id FROM invoices WHERE id = $1`, [created.id]);
    const event = { id: "evt_forged", type: "charge.paid", data: { charge_id: chargeId, amount: 1000, occurred_at: new Date().toISOString() } };
    expect((await postEvent(event, "whsec_" + Buffer.from("not the provider's secret at all").toString("base64"))).status).toBe(401);
    expect((await postEvent({ ...event, id: "evt_unknown", data: { ...event.data, charge_id: "chg_nobody" } })).status).toBe(404);
    expect(await query(`SELECT 1 FROM payment_events WHERE event_id IN ('evt_forged', 'evt_unknown')`)).toEqual([]);
    const before = await balanceOf(person.accountId);
    // A paid event whose amount differs from the invoice's: recorded, nothing credited, still pending.
    const wrong = await postEvent({ ...event, id: `evt_wrong_${created.id.slice(0, 8)}`, data: { ...event.data, amount: 999 } });
    expect(wrong.body).toEqual({ result: "amount_mismatch", invoice_id: created.id });
    expect(await balanceOf(person.accountId)).toBe(before);
    expect((await api(`/api/invoices/${created.id}`, { token })).body.data.status).toBe("pending");
  });

  it("refuses amounts outside the limits, naming the field; another account's invoice is 404", async () => {
    const low = await api("/api/invoices", { token, body: { amount: 999 }, lang: "en" });
    expect(low.status).toBe(422);
    expect(low.body.error.fields).toEqual({ amount: ["The minimum top-up is R$ 10,00"] });
    const high = await api("/api/invoices", { token, body: { amount: 5_000_001 }, lang: "pt-BR" });
    expect(high.body.error.fields).toEqual({ amount: ["A recarga máxima é de R$ 50.000,00"] });
    expect((await api("/api/invoices", { token, body: { amount: 10.5 } })).status).toBe(422);
    const mine = (await api("/api/invoices", { token, body: { amount: 2000 } })).body.data;
    const other = await registerPerson("topupother");
    const otherToken = (await login(other.email, other.password)).token;
    expect((await api(`/api/invoices/${mine.id}`, { token: otherToken })).status).toBe(404);
    expect((await api(`/api/invoices/${mine.id}/pdf`, { token: otherToken })).status).toBe(404);
    expect((await api("/api/invoices", { token: otherToken })).body.data).toEqual([]);
  });
});
