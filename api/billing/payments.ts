/**
 * A payment provider's event, already authenticated (the webhook route verified its signature over
 * the raw body), applied exactly once (ADR 043), in one transaction:
 *  1. the event is stored under (provider, event id): a replay finds it and changes nothing;
 *  2. its invoice (the provider's charge id) is locked; an unknown charge is refused (404: not
 *     ours, or not yet written — the provider retries) and nothing is stored;
 *  3. `charge.paid` of a pending or failed invoice for its exact amount: the invoice becomes `paid`
 *     and the balance is credited through the ledger (a `topup` posting naming the invoice) — a top-up
 *     or a postpaid cycle's invoice alike (ADR 044). A failed (overdue) invoice stays payable: once
 *     paid, an account the billing job suspended (billing_suspended_at) with no other failed cycle
 *     invoice becomes active again. A second, different event for an invoice already paid, or an
 *     amount that differs, changes nothing (stored with its outcome, for the record);
 *  4. `charge.failed` of a pending invoice: `fail`.
 */
import { creditBalance } from "../accounts/balance";
import { AppError } from "../lib/errors";
import { rows } from "../lib/sql";
import { sequelize } from "../../models";
import type { PaymentEvent, PaymentProvider } from "./payment-provider";

export type PaymentOutcome = "credited" | "failed" | "duplicate" | "already_settled" | "amount_mismatch";

export async function applyPaymentEvent(provider: PaymentProvider, event: PaymentEvent, payload: unknown): Promise<{ result: PaymentOutcome; invoice_id: string }> {
  return sequelize().transaction(async (transaction) => {
    const [invoice] = await rows<{ id: string; account_id: string; status: string; amount: number }>(
      `SELECT id, account_id, status, amount FROM invoices WHERE provider = $1 AND provider_charge_id = $2 FOR UPDATE`,
      [provider.name, event.chargeId],
      { transaction },
    );
    if (!invoice) throw new AppError("NOT_FOUND");
    const outcome: PaymentOutcome =
      event.kind === "charge.failed"
        ? invoice.status === "pending"
          ? "failed"
          : "already_settled"
        : invoice.status === "paid"
          ? "already_settled"
          : Number(invoice.amount) !== event.amount
            ? "amount_mismatch"
            : "credited";
    const stored = await rows<{ event_id: string }>(
      `INSERT INTO payment_events (provider, event_id, invoice_id, kind, outcome, payload) VALUES ($1, $2, $3, $4, $5, $6::jsonb)
       ON CONFLICT (provider, event_id) DO NOTHING RETURNING event_id`,
      [provider.name, event.eventId, invoice.id, event.kind, outcome, JSON.stringify(payload)],
      { transaction },
    );
    if (stored.length === 0) return { result: "duplicate" as const, invoice_id: invoice.id };
    if (outcome === "credited") {
      await rows(`UPDATE invoices SET status = 'paid', paid_at = $2, updated_at = now() WHERE id = $1`, [invoice.id, event.occurredAt], { transaction });
      await creditBalance(invoice.account_id, Number(invoice.amount), transaction, { kind: "topup", reference: `invoice:${invoice.id}`, reason: `Pix ${provider.name}` });
      // An account the billing job suspended is active again when no cycle invoice of it is left failed (same transaction).
      await rows(
        `UPDATE accounts a SET status = 'active', billing_suspended_at = NULL, updated_at = now()
          WHERE a.id = $1 AND a.status = 'suspended' AND a.billing_suspended_at IS NOT NULL
            AND NOT EXISTS (SELECT 1 FROM invoices i WHERE i.account_id = a.id AND i.kind = 'cycle' AND i.status = 'fail')
`,
        [invoice.account_id],
        { transaction },
      );
    } else if (outcome === "failed") {
      await rows(`UPDATE invoices SET status = 'fail', failed_at = now(), updated_at = now() WHERE id = $1`, [invoice.id], { transaction });
    }
    return { result: outcome, invoice_id: invoice.id };
  });
}
