/**
 * The BR Code is read back by pix-utils, a parser written by others, so that a mistake in our reading of the
 * manual is not simply repeated by a test that shares it; the CRC is checked against codes published elsewhere.
 */
import { createStaticPix, hasError, isStaticPix, parsePix } from "pix-utils";
import { describe, expect, it } from "vitest";
import { crc16, pixPayload, pixQrSvg } from "./pix";

const base = {
  key: "123e4567-e12b-12d1-a456-426655440000",
  amountCentavos: 1050,
  merchantName: "Mensageria Ltda",
  merchantCity: "Sao Paulo",
  txid: "TOPUP42abc",
};

/** The parser's reading of a code, failing the test if it refuses it. */
function parsed(code: string) {
  const pix = parsePix(code);
  if (hasError(pix) || !isStaticPix(pix)) throw new Error(`pix-utils refused ${code}: ${JSON.stringify(pix)}`);
  return pix;
}

/** Our own walk over the top-level fields, to see IDs and order the parser does not report. */
function topLevel(code: string): [string, string][] {
  const out: [string, string][] = [];
  for (let i = 0; i < code.length; ) {
    const len = Number(code.slice(i + 2, i + 4));
    out.push([code.slice(i, i + 2), code.slice(i + 4, i + 4 + len)]);
    i += 4 + len;
  }
  return out;
}

describe("crc16", () => {
  it.each([
    // The example of Banco Central's Manual de Padrões para Iniciação do Pix (static code, random key).
    "00020126580014br.gov.bcb.pix0136123e4567-e12b-12d1-a456-4266554400005204000053039865802BR5913Fulano de Tal6008BRASILIA62070503***63041D3D",
    // pix-utils' README example, with an amount and a description.
    "00020126650014br.gov.bcb.pix0119nubank@thalesog.com0220Gerado por Pix-Utils52040000530398654041.005802BR5914Thales Ogliari6009Sao Paulo62070503***63046069",
  ])("matches the CRC of a published code: %s", (code) => {
    expect(crc16(code.slice(0, -4))).toBe(code.slice(-4));
  });

  it("is CRC-16/CCITT-FALSE (check value of '123456789' is 29B1)", () => {
    expect(crc16("123456789")).toBe("29B1");
    expect(crc16("")).toBe("FFFF");
  });
});

describe("pixPayload", () => {
  it("builds a code that an independent parser accepts and reads back", () => {
    const code = pixPayload({ ...base, description: "Recarga de créditos" });
    const pix = parsed(code);
    expect(pix.pixKey).toBe(base.key);
    expect(pix.transactionAmount).toBe(10.5);
    expect(pix.merchantName).toBe("Mensageria Ltda");
    expect(pix.merchantCity).toBe("Sao Paulo");
    expect(pix.txid).toBe("TOPUP42abc");
    expect(pix.infoAdicional).toBe("Recarga de creditos");
    expect(pix.merchantCategoryCode).toBe("0000");
    expect(pix.transactionCurrency).toBe("986");
    expect(pix.countryCode).toBe("BR");
  });

  it("has the fields in the manual's order, with a single-use point of initiation and the CRC last", () => {
    const code = pixPayload(base);
    expect(topLevel(code).map(([id]) => id)).toEqual(["00", "01", "26", "52", "53", "54", "58", "59", "60", "62", "63"]);
    expect(code.startsWith("000201010212")).toBe(true);
    expect(code).toContain("26580014br.gov.bcb.pix0136123e4567-e12b-12d1-a456-426655440000");
    expect(code).toContain("540510.50");
    expect(code).toContain("62140510TOPUP42abc");
    expect(code.slice(-8, -4)).toBe("6304");
    expect(code.slice(-4)).toMatch(/^[0-9A-F]{4}$/);
    expect(crc16(code.slice(0, -4))).toBe(code.slice(-4));
  });

  it("is the code pix-utils itself builds from the same data", () => {
    const ours = pixPayload({ ...base, merchantName: "MENSAGERIA LTDA", merchantCity: "SAO PAULO", description: "Recarga" });
    const theirs = createStaticPix({
      pixKey: base.key,
      transactionAmount: 10.5,
      merchantName: "MENSAGERIA LTDA",
      merchantCity: "SAO PAULO",
      txid: base.txid,
      infoAdicional: "Recarga",
    });
    if (hasError(theirs)) throw new Error(JSON.stringify(theirs));
    // pix-utils writes field 01 only for `oneTime`, which its static-code parameters do not take: compare without it.
    const withoutInitiation = ours.slice(0, 6) + ours.slice(12, -4);
    const theirsBody = theirs.toBRCode().slice(0, -4);
    expect(withoutInitiation).toBe(theirsBody);
  });

  it.each([
    [1, "0.01"],
    [99, "0.99"],
    [100, "1.00"],
    [1050, "10.50"],
    [9_999_999_999, "99999999.99"],
  ])("formats %i centavos as %s", (amountCentavos, text) => {
    const code = pixPayload({ ...base, amountCentavos });
    expect(topLevel(code).find(([id]) => id === "54")?.[1]).toBe(text);
    expect(parsed(code).transactionAmount).toBe(Number(text));
  });

  it.each([0, -100, 10.5, Number.NaN, 10_000_000_000])("refuses an amount of %s centavos", (amountCentavos) => {
    expect(() => pixPayload({ ...base, amountCentavos })).toThrow(/amount/);
  });

  it.each(["", "abc-123", "com espaço", "a".repeat(26), "***"])("refuses the txid %j", (txid) => {
    expect(() => pixPayload({ ...base, txid })).toThrow(/txid/);
  });

  it("accepts a txid of 25 letters and digits", () => {
    const txid = "Abc123".repeat(4).padEnd(25, "Z");
    expect(parsed(pixPayload({ ...base, txid })).txid).toBe(txid);
  });

  it("strips accents, and shortens a name over 25 characters or a city over 15 instead of refusing them", () => {
    const code = pixPayload({
      ...base,
      merchantName: "  Comunicações  Ágeis e Mensageria do Brasil ",
      merchantCity: "São José dos Campos",
    });
    const pix = parsed(code);
    expect(pix.merchantName).toBe("Comunicacoes Ageis e Mens");
    expect(pix.merchantName).toHaveLength(25);
    expect(pix.merchantCity).toBe("Sao Jose dos Ca");
  });

  it("refuses a name or city with characters outside the allowed set, or one that is empty", () => {
    expect(() => pixPayload({ ...base, merchantName: "Loja ★" })).toThrow(/merchant name/);
    expect(() => pixPayload({ ...base, merchantName: "   " })).toThrow(/merchant name is empty/);
    expect(() => pixPayload({ ...base, merchantCity: "東京" })).toThrow(/merchant city/);
  });

  it("refuses an empty key, one over 77 characters, or one with spaces", () => {
    expect(() => pixPayload({ ...base, key: "" })).toThrow(/key is empty/);
    expect(() => pixPayload({ ...base, key: "k".repeat(78) })).toThrow(/key is longer/);
    expect(() => pixPayload({ ...base, key: "a b@example.com" })).toThrow(/key has spaces/);
  });

  it("shortens the description so that field 26 stays within 99 characters, and drops it when there is no room", () => {
    const long = "Pagamento de recarga de creditos da conta 12345 ".repeat(3);
    const code = pixPayload({ ...base, description: long });
    const mai = topLevel(code).find(([id]) => id === "26")?.[1] ?? "";
    expect(mai).toHaveLength(99);
    const info = parsed(code).infoAdicional ?? "";
    expect(long.startsWith(info)).toBe(true);
    expect(info.length).toBeGreaterThan(0);

    const key = `${"x".repeat(65)}@example.com`; // 77 characters: field 26 is full without a description
    const full = pixPayload({ ...base, key, description: long });
    const pix = parsed(full);
    expect(pix.pixKey).toBe(key);
    expect(pix.infoAdicional).toBeUndefined();
    expect(topLevel(full).find(([id]) => id === "26")?.[1]).toHaveLength(99);
  });

  it("leaves out an empty or null description", () => {
    expect(pixPayload({ ...base, description: null })).toBe(pixPayload(base));
    expect(pixPayload({ ...base, description: "   " })).toBe(pixPayload(base));
  });
});

describe("pixQrSvg", () => {
  it("draws the payload as an SVG", async () => {
    const svg = await pixQrSvg(pixPayload(base));
    expect(svg).toMatch(/^<svg[\s\S]*<\/svg>\s*$/);
    expect(svg).toContain("<path");
  });
});
