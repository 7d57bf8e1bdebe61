import { formatInTimeZone } from "date-fns-tz";
import { describe, expect, it } from "vitest";
import { formatDate, formatInZone } from "./format";

describe("dates from Intl's parts (no date library in the browser)", () => {
  it("match date-fns-tz at thousands of instants over nine years, DST changes and five zones included", () => {
    const zones = ["America/Sao_Paulo", "UTC", "America/New_York", "Asia/Shanghai", "America/Manaus"];
    // Every 29 hours and a minute from 2018 (São Paulo still had summer time) to 2027: midnight, noon and DST edges included.
    for (let t = Date.UTC(2018, 0, 1); t < Date.UTC(2027, 0, 1); t += 29 * 3600_000 + 60_000) {
      const d = new Date(t);
      for (const zone of zones) expect(formatInZone(d, zone, "dd/MM/yy HH:mm"), `${d.toISOString()} ${zone}`).toBe(formatInTimeZone(d, zone, "dd/MM/yy HH:mm"));
    }
  });

  it("formatDate: the language's short form, with time when asked; empty for nothing or an invalid date", () => {
    const d = "2026-03-05T02:30:00Z"; // 23:30 of the 4th in São Paulo
    expect(formatDate(d, "pt-BR")).toBe("04/03/26");
    expect(formatDate(d, "en", true)).toBe("03/04/26 23:30");
    expect(formatDate(d, "zh", true)).toBe("26/03/04 23:30");
    expect(formatDate(null)).toBe("");
    expect(formatDate("not a date")).toBe("");
  });
});
