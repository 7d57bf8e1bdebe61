/**
 * An invoice as a PDF (issue 18): one A4 page with who issues it, the account it is for (its name
 * and address), the invoice's number, dates and status, its line items with their amounts and the
 * total, and — while pending — the Pix "copia e cola" to pay it. Drawn with pdf-lib (pure
 * JavaScript, no native parts) in its standard Helvetica, whose WinAnsi encoding covers Portuguese;
 * a character outside it (an emoji in a company name) is replaced, never an error.
 * Times in America/Sao_Paulo; money with Intl in the invoice's currency.
 */
import { PDFDocument, StandardFonts, rgb, type PDFFont } from "pdf-lib";
import type { SignedInCtx } from "../lib/context";
import { AppError } from "../lib/errors";
import { row } from "../lib/sql";
import { getInvoice } from "./invoices";

const TZ = "America/Sao_Paulo";
const money = (minor: number, currency: string) => new Intl.NumberFormat("pt-BR", { style: "currency", currency }).format(minor / 100);
const when = (iso: string | null) => (iso ? new Intl.DateTimeFormat("pt-BR", { timeZone: TZ, dateStyle: "short", timeStyle: "short" }).format(new Date(iso)) : "—");
const STATUS: Record<string, string> = { pending: "Pendente", paid: "Paga", fail: "Falhou" };
const KIND: Record<string, string> = { topup: "Recarga de saldo por Pix", cycle: "Uso do período" };
/** A line's item (api/billing/invoices.ts InvoiceLine). */
const ITEM: Record<string, string> = {
  topup: "Recarga de saldo por Pix",
  message: "Envios de mensagens",
  refund: "Estornos de envios",
  plan_fee: "Mensalidades de planos",
  agent: "Agentes de atendimento",
};
/** A period's days in São Paulo: its first, and the last before its (exclusive) end. */
const day = (iso: string) => new Intl.DateTimeFormat("pt-BR", { timeZone: TZ, dateStyle: "short" }).format(new Date(iso));
const lastDay = (endIso: string) => day(new Date(new Date(endIso).getTime() - 1).toISOString());

/** Text the standard font can draw: anything outside WinAnsi becomes "?". */
function drawable(font: PDFFont, text: string): string {
  return [...text].map((c) => (font.getCharacterSet().includes(c.codePointAt(0)!) ? c : "?")).join("");
}

export async function invoicePdf(ctx: SignedInCtx, id: string): Promise<{ bytes: Uint8Array; filename: string }> {
  const { data: invoice } = await getInvoice(ctx, id);
  const account = await row<{ name: string; street: string | null; district: string | null; city: string | null; province: string | null; postal_code: string | null }>(
    `SELECT name, street, district, city, province, postal_code FROM accounts WHERE id = $1`,
    [ctx.actor.accountId],
  );
  if (!account) throw new AppError("NOT_FOUND");
  const pdf = await PDFDocument.create();
  pdf.setTitle(`Fatura ${invoice.id}`);
  pdf.setSubject(`${KIND[invoice.kind]} — ${money(invoice.amount, invoice.currency)}`);
  pdf.setCreator("Mensageria");
  const page = pdf.addPage([595.28, 841.89]);
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  const bold = await pdf.embedFont(StandardFonts.HelveticaBold);
  let y = 790;
  const line = (text: string, opts: { size?: number; f?: PDFFont; x?: number; gap?: number } = {}) => {
    const f = opts.f ?? font;
    page.drawText(drawable(f, text), { x: opts.x ?? 50, y, size: opts.size ?? 11, font: f, color: rgb(0.1, 0.1, 0.12) });
    y -= opts.gap ?? (opts.size ?? 11) + 7;
  };
  line("Mensageria", { size: 20, f: bold, gap: 30 });
  line(`Fatura ${invoice.id}`, { size: 13, f: bold });
  line(`Situação: ${STATUS[invoice.status] ?? invoice.status}`);
  line(`Emitida em: ${when(invoice.created_at)}`);
  line(`Vencimento: ${when(invoice.due_at)}`);
  if (invoice.paid_at) line(`Paga em: ${when(invoice.paid_at)}`);
  if (invoice.period_start && invoice.period_end) line(`Período: ${day(invoice.period_start)} a ${lastDay(invoice.period_end)}`);
  y -= 12;
  line("Cliente", { f: bold });
  line(account.name);
  const address = [account.street, account.district, [account.city, account.province].filter(Boolean).join(" - "), account.postal_code ? `CEP ${account.postal_code}` : null]
    .filter((p) => p && String(p).trim())
    .join(", ");
  if (address) line(address);
  y -= 12;
  line("Itens", { f: bold });
  for (const l of invoice.lines) {
    const at = y;
    line(`${ITEM[l.item] ?? l.item}${invoice.kind === "cycle" ? ` (${l.quantity})` : ""}`);
    page.drawText(money(l.amount, invoice.currency), { x: 430, y: at, size: 11, font });
  }
  page.drawLine({ start: { x: 50, y: y + 4 }, end: { x: 545, y: y + 4 }, thickness: 0.5, color: rgb(0.7, 0.7, 0.7) });
  y -= 6;
  const total = y;
  line("Total", { f: bold });
  page.drawText(money(invoice.amount, invoice.currency), { x: 430, y: total, size: 11, font: bold });
  if (invoice.pix) {
    y -= 12;
    line("Pague com Pix (copia e cola):", { f: bold });
    for (let i = 0; i < invoice.pix.payload.length; i += 80) line(invoice.pix.payload.slice(i, i + 80), { size: 8, gap: 12 });
  }
  return { bytes: await pdf.save(), filename: `fatura-${invoice.id.slice(0, 8)}.pdf` };
}
