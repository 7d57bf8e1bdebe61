import { describe, expect, it } from "vitest";
import { isGsm7, smsSegments } from "./segments";

describe("SMS coding and segments", () => {
  it("plain GSM-7 text: 160 septets in one SMS, 153 per part after that", () => {
    expect(smsSegments("")).toEqual({ coding: "GSM7", characters: 0, segments: 1 });
    expect(smsSegments("a".repeat(160))).toEqual({ coding: "GSM7", characters: 160, segments: 1 });
    expect(smsSegments("a".repeat(161))).toEqual({ coding: "GSM7", characters: 161, segments: 2 });
    expect(smsSegments("a".repeat(306))).toEqual({ coding: "GSM7", characters: 306, segments: 2 });
    expect(smsSegments("a".repeat(307))).toEqual({ coding: "GSM7", characters: 307, segments: 3 });
  });

  it("the basic table's accented letters and symbols stay GSM-7", () => {
    expect(isGsm7("Olá! Você é ótimo? Ñ ü à @ £ $ ¥ § ¿ ¡ Δ\n")).toBe(false); // á, ê, ó are not in GSM 03.38
    expect(isGsm7("èéùìòÇØøÅåÆæßÉÄÖÑÜäöñüà@£$¥§¿¡ΔΦΓΛΩΠΨΣΘΞ_\r\n")).toBe(true);
    expect(smsSegments("Pedido nº 12").coding).toBe("UCS2"); // º is not GSM
  });

  it("extension characters take two septets", () => {
    expect(smsSegments("€")).toEqual({ coding: "GSM7", characters: 2, segments: 1 });
    expect(smsSegments("[]{}|~^\\€\f")).toEqual({ coding: "GSM7", characters: 20, segments: 1 });
    expect(smsSegments("a".repeat(159) + "€")).toEqual({ coding: "GSM7", characters: 161, segments: 2 });
    // An escaped character is never split: 152 + € does not fit a 153-septet part.
    expect(smsSegments("a".repeat(152) + "€" + "a".repeat(152)).segments).toBe(3);
    expect(smsSegments("a".repeat(151) + "€" + "a".repeat(153)).segments).toBe(2);
  });

  it("anything else is UCS-2: 70 units in one SMS, 67 per part, emoji count two and are not split", () => {
    expect(smsSegments("Olá, tudo bem?")).toEqual({ coding: "UCS2", characters: 14, segments: 1 });
    expect(smsSegments("á".repeat(70))).toEqual({ coding: "UCS2", characters: 70, segments: 1 });
    expect(smsSegments("á".repeat(71))).toEqual({ coding: "UCS2", characters: 71, segments: 2 });
    expect(smsSegments("á".repeat(134))).toEqual({ coding: "UCS2", characters: 134, segments: 2 });
    expect(smsSegments("á".repeat(135))).toEqual({ coding: "UCS2", characters: 135, segments: 3 });
    expect(smsSegments("Oi 😀")).toEqual({ coding: "UCS2", characters: 5, segments: 1 });
    expect(smsSegments("😀".repeat(35))).toEqual({ coding: "UCS2", characters: 70, segments: 1 });
    // 66 units + an emoji (2) does not fit a 67-unit part.
    expect(smsSegments("á".repeat(66) + "😀" + "á".repeat(66)).segments).toBe(3);
    expect(smsSegments("á".repeat(65) + "😀" + "á".repeat(67)).segments).toBe(2);
    expect(smsSegments("中文短信").coding).toBe("UCS2");
  });
});
