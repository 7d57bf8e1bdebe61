import { describe, expect, it } from "vitest";
import { aggregatePartStatuses } from "../../messages/parts";
import { smsParts, smsSegments } from "../../sms/segments";
import smpp from "smpp";
import {
  concatOf,
  concatRef,
  concatUdh,
  decodeGsm7,
  decodeText,
  e164,
  encodeGsm7,
  MESSAGE_STATE,
  messageState,
  parseReceiptText,
  receiptStat,
  receiptText,
  SHORT_MESSAGE_MAX,
  splitUdh,
  userData,
} from "./protocol";

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

describe("SMPP codings, user data and states (issue 12)", () => {
  it("data codings of SMPP 3.4 5.2.19: the accepted ones decode correctly, the others are refused", () => {
    expect(decodeText(1, Buffer.from([0x63, 0xe7, 0x61]))).toBe("cça"); // IA5 as Kannel sends it: Latin-1 octets
    expect(decodeText(3, Buffer.from("Ação é ç", "latin1"))).toBe("Ação é ç");
    expect(decodeText(8, Buffer.from("Olá 你好 😀", "utf16le").swap16())).toBe("Olá 你好 😀");
    expect(decodeText(6, Buffer.from([0xb0, 0xb1]))).toBe("АБ");
    expect(decodeText(7, Buffer.from([0xf9, 0xec, 0xe5, 0xed]))).toBe("שלום");
    expect(decodeText(10, Buffer.from("1b2442246424731b2842", "hex"))).toBe("やん");
    expect(decodeText(14, Buffer.from("c7d1b1db", "hex"))).toBe("한글");
    expect(decodeText(0xf1, encodeGsm7("Olà {1}"))).toBe("Olà {1}"); // GSM alphabet with a message class
    for (const refused of [2, 4, 5, 9, 11, 12, 13, 15, 0x10, 0xc0, 0xe8, 0xf4, 0xf6]) expect(decodeText(refused, Buffer.from("abc")), String(refused)).toBeNull();
  });

  it("GSM 03.38 (data_coding 0): every default and extension character round-trips; 0x09 is Ç; octets above 0x7F are refused", () => {
    const all = "@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞÆæßÉ !\"#¤%&'()*+,-./0123456789:;<=>?¡ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÑÜ§¿abcdefghijklmnopqrstuvwxyzäöñüà\f^{}\\[~]|€";
    expect(decodeGsm7(encodeGsm7(all))).toBe(all);
    expect([...encodeGsm7("Ç€")]).toEqual([0x09, 0x1b, 0x65]);
    expect(decodeText(0, Buffer.from([0x09, 0x00, 0x11]))).toBe("Ç@_");
    // The same table as the smpp package's codec (what ESMEs using it send).
    expect(decodeGsm7(smpp.gsmCoder.encode(all, 0))).toBe(all);
    expect(decodeText(0, Buffer.from([0x61, 0xe7]))).toBeNull();
  });

  it("a user data header splits off its information elements", () => {
    const { udh, message } = splitUdh(Buffer.concat([concatUdh(9, 3, 1), Buffer.from("hi")]));
    expect(concatOf(udh)).toEqual({ ref: 9, total: 3, seq: 1 });
    expect(message.toString()).toBe("hi");
  });

  it("receipt text as user data: short_message up to 254 octets, else message_payload; always encodable", () => {
    const at = new Date(Date.UTC(2026, 0, 2, 3, 4));
    const id = "0b1c2d3e-4f50-6172-8394-a5b6c7d8e9f0";
    const gsm = userData(receiptText({ id, stat: "DELIVRD", submitted: at, done: at, text: "Seu pedido saiu hoje" }));
    expect(gsm.data_coding).toBe(0);
    expect(gsm.message_payload).toBeUndefined();
    const ucs2 = userData(receiptText({ id, stat: "DELIVRD", submitted: at, done: at, text: "你好你好你好你好你好你好你好你好你好你好" }));
    expect(ucs2.data_coding).toBe(8);
    expect(ucs2.short_message.length).toBe(0);
    expect(ucs2.message_payload!.length).toBeGreaterThan(SHORT_MESSAGE_MAX);
    // The codec encodes both (the original put the UCS-2 text in short_message: RangeError, receipt lost).
    for (const fields of [gsm, ucs2]) {
      const pdu = new smpp.PDU("deliver_sm", { source_addr: "5511999999999", destination_addr: "29123", esm_class: 4, receipted_message_id: id, ...fields });
      const back = new smpp.PDU(pdu.toBuffer());
      const text = (back.message_payload ?? back.short_message).message;
      expect(parseReceiptText(text)?.id).toBe(id);
    }
  });

  it("message_state (5.2.28) and the receipt's stat of our statuses", () => {
    expect(["scheduled", "queued", "sending", "sent", "pending"].map((s) => messageState(s as never))).toEqual(Array(5).fill(MESSAGE_STATE.ENROUTE));
    expect(messageState("delivered")).toBe(2);
    expect(messageState("read")).toBe(2);
    expect(messageState("unavailable")).toBe(3);
    expect(messageState("failed", "canceled")).toBe(4);
    expect(messageState("failed", "001")).toBe(5);
    expect(messageState("rejected")).toBe(8);
    expect(messageState("optout")).toBe(8);
    expect(messageState("received")).toBe(7);
    expect(receiptStat("failed", "canceled")).toBe("DELETED");
    expect(receiptStat("failed", null)).toBe("UNDELIV");
  });
});
