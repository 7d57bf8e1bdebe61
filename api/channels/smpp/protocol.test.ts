import { describe, expect, it } from "vitest";
import { aggregatePartStatuses } from "../../messages/parts";
import { smsParts, smsSegments } from "../../sms/segments";
import { concatOf, concatRef, concatUdh, e164, parseReceiptText, Reassembler, receiptText } from "./protocol";

describe("SMPP protocol helpers", () => {
  it("concatenation UDH is 05 00 03 ref total seq and reads back", () => {
    const udh = concatUdh(0x1a2, 3, 2);
    expect([...udh]).toEqual([0x05, 0x00, 0x03, 0xa2, 3, 2]);
    expect(concatOf([udh.subarray(1)])).toEqual({ ref: 0xa2, total: 3, seq: 2 });
    expect(concatOf([Buffer.from([0x08, 0x04, 0x01, 0x02, 2, 1])])).toEqual({ ref: 0x0102, total: 2, seq: 1 });
    expect(concatOf(undefined)).toBeNull();
    expect(concatRef("abc")).toBe(concatRef("abc"));
  });

  it("receipt text round-trips the standard format", () => {
    const at = new Date(Date.UTC(2026, 0, 2, 3, 4));
    const text = receiptText({ id: "m-1", stat: "DELIVRD", submitted: at, done: at, text: "Olá mundo, uma mensagem longa" });
    expect(text).toBe("id:m-1 sub:001 dlvrd:001 submit date:2601020304 done date:2601020304 stat:DELIVRD err:000 text:Olá mundo, uma mensa");
    expect(parseReceiptText(text)).toEqual({ id: "m-1", stat: "DELIVRD", err: "000" });
    expect(parseReceiptText("id:7 sub:001 dlvrd:000 stat:undeliv err:005")).toEqual({ id: "7", stat: "UNDELIV", err: "005" });
    expect(parseReceiptText("hello")).toBeNull();
  });

  it("reassembles parts in any order once, whatever arrives twice", () => {
    const r = new Reassembler();
    expect(r.add("k", { ref: 1, total: 3, seq: 2 }, "b")).toBeNull();
    expect(r.add("k", { ref: 1, total: 3, seq: 1 }, "a")).toBeNull();
    expect(r.add("other", { ref: 1, total: 3, seq: 3 }, "x")).toBeNull();
    expect(r.add("k", { ref: 1, total: 3, seq: 3 }, "c")).toBe("abc");
    expect(r.add("k", { ref: 1, total: 3, seq: 3 }, "c")).toBeNull(); // a new message with the same ref starts over
  });

  it("E.164 from SMPP addresses", () => {
    expect(e164("5511987654321")).toBe("+5511987654321");
    expect(e164("+5511987654321")).toBe("+5511987654321");
    expect(e164("29094")).toBeNull();
    expect(e164(undefined)).toBeNull();
  });
});

describe("smsParts (the split the SMPP client sends)", () => {
  it("agrees with smsSegments and never splits an escape or a surrogate pair", () => {
    for (const text of ["oi", "a".repeat(160), "a".repeat(161), "{".repeat(100), "€x".repeat(80), "ç".repeat(70), "ç".repeat(71), "😀".repeat(40), "a😀".repeat(30)]) {
      const { coding, parts } = smsParts(text);
      const seg = smsSegments(text);
      expect(coding, text).toBe(seg.coding);
      expect(parts.length, text).toBe(seg.segments);
      expect(parts.join(""), text).toBe(text);
      if (parts.length > 1) for (const p of parts) expect(smsSegments(p).characters, text).toBeLessThanOrEqual(coding === "GSM7" ? 153 : 67);
    }
  });
});

describe("part receipts -> message status", () => {
  it("delivered only when every part is; any failure fails the message; otherwise nothing", () => {
    expect(aggregatePartStatuses(3, ["delivered", "delivered"])).toBeNull();
    expect(aggregatePartStatuses(3, ["delivered", "delivered", "sent"])).toBeNull();
    expect(aggregatePartStatuses(3, ["delivered", "delivered", "delivered"])).toBe("delivered");
    expect(aggregatePartStatuses(3, ["delivered", "unavailable", "sent"])).toBe("unavailable");
    expect(aggregatePartStatuses(1, ["failed"])).toBe("failed");
  });
});
