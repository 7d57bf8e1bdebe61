/** Reading what a generated PDF shows, for tests of the invoices' PDFs (api/billing/invoice-pdf.ts). */
import { constants, inflateSync } from "node:zlib";

/** The text a PDF shows: every content stream (inflated when compressed), its hex-string text operands decoded as WinAnsi (≈ Latin-1). */
export function pdfText(bytes: Buffer): string {
  const s = bytes.toString("latin1");
  const out: string[] = [];
  for (const m of s.matchAll(/stream\r?\n/g)) {
    const start = m.index! + m[0].length;
    const raw = Buffer.from(s.slice(start, s.indexOf("endstream", start)), "latin1");
    let data = raw;
    try {
      data = inflateSync(raw, { finishFlush: constants.Z_SYNC_FLUSH });
    } catch {}
    for (const h of data.toString("latin1").matchAll(/<([0-9A-Fa-f]+)>\s*Tj/g)) out.push(Buffer.from(h[1], "hex").toString("latin1"));
  }
  return out.join("\n").replace(/\u00a0/g, " ");
}
