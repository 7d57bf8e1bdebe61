import { describe, expect, it } from "vitest";
import { localParts, normalizeTime, openAt, type OpeningRow, type Schedule } from "./hours";

const DEPT = "00000000-0000-4000-8000-00000000000d";
const OTHER = "00000000-0000-4000-8000-00000000000e";
const row = (weekday: number, opens: string, closes: string, department_id: string | null = null): OpeningRow => ({ weekday, opens, closes, department_id });
/** Monday to Friday 08:00-18:00, account-wide (Postgres answers time as HH:MM:SS). */
const weekdays: OpeningRow[] = [1, 2, 3, 4, 5].map((d) => row(d, "08:00:00", "18:00:00"));
const at = (iso: string) => new Date(iso);

describe("São Paulo local time", () => {
  it("is UTC-3 since 2019 (no daylight saving): day, weekday and time", () => {
    expect(localParts(at("2026-03-02T11:00:00Z"))).toEqual({ day: "2026-03-02", weekday: 1, time: "08:00:00" });
    expect(localParts(at("2026-01-15T11:00:00Z")).time).toBe("08:00:00"); // summer: no DST any more
    expect(localParts(at("2026-07-15T11:00:00Z")).time).toBe("08:00:00"); // winter
  });

  it("midnight: 02:59:59 UTC is still the previous local day; 03:00 UTC is 00:00 of the next", () => {
    expect(localParts(at("2026-03-02T02:59:59Z"))).toEqual({ day: "2026-03-01", weekday: 0, time: "23:59:59" });
    expect(localParts(at("2026-03-02T03:00:00Z"))).toEqual({ day: "2026-03-02", weekday: 1, time: "00:00:00" });
  });

  it("uses the zone's rules, not a fixed offset: in January 2019 São Paulo still had DST (UTC-2)", () => {
    expect(localParts(at("2019-01-15T11:00:00Z")).time).toBe("09:00:00");
  });

  it("normalizes times", () => {
    expect(normalizeTime("8:00")).toBe("08:00:00");
    expect(normalizeTime("08:30")).toBe("08:30:00");
    expect(normalizeTime("24:00:00")).toBe("24:00:00");
  });
});

describe("openAt", () => {
  const s: Schedule = { holidays: [], hours: weekdays };

  it("with no hours at all it is always open (any day, any time)", () => {
    const none: Schedule = { holidays: [], hours: [] };
    for (const t of ["2026-03-01T15:00:00Z", "2026-03-02T06:00:00Z", "2026-03-07T23:59:59Z"]) expect(openAt(none, at(t)), t).toBe(true);
  });

  it("opens at the opening minute and closes at the closing one (inclusive start, exclusive end)", () => {
    expect(openAt(s, at("2026-03-02T10:59:59Z"))).toBe(false); // Mon 07:59:59
    expect(openAt(s, at("2026-03-02T11:00:00Z"))).toBe(true); // Mon 08:00
    expect(openAt(s, at("2026-03-02T20:59:59Z"))).toBe(true); // Mon 17:59:59
    expect(openAt(s, at("2026-03-02T21:00:00Z"))).toBe(false); // Mon 18:00
  });

  it("a weekday with no row is closed (Saturday and Sunday here)", () => {
    expect(openAt(s, at("2026-03-07T15:00:00Z"))).toBe(false); // Sat 12:00
    expect(openAt(s, at("2026-03-08T15:00:00Z"))).toBe(false); // Sun 12:00
  });

  it("around midnight the weekday is São Paulo's, not UTC's", () => {
    const night: Schedule = { holidays: [], hours: [row(0, "22:00", "24:00"), row(1, "00:00", "02:00")] };
    expect(openAt(night, at("2026-03-02T02:59:59Z"))).toBe(true); // Sun 23:59:59 local (Mon in UTC)
    expect(openAt(night, at("2026-03-02T03:00:00Z"))).toBe(true); // Mon 00:00 local
    expect(openAt(night, at("2026-03-02T04:59:59Z"))).toBe(true); // Mon 01:59:59
    expect(openAt(night, at("2026-03-02T05:00:00Z"))).toBe(false); // Mon 02:00
    expect(openAt(night, at("2026-03-01T00:30:00Z"))).toBe(false); // Sat 21:30 local (Sun in UTC)
    expect(openAt(s, at("2026-03-03T01:00:00Z"))).toBe(false); // Mon 22:00 local although Tue in UTC
  });

  it("a holiday is closed all day, by São Paulo's calendar day", () => {
    const h: Schedule = { holidays: ["2026-03-02"], hours: weekdays };
    expect(openAt(h, at("2026-03-02T15:00:00Z"))).toBe(false);
    expect(openAt(h, at("2026-03-03T15:00:00Z"))).toBe(true);
    // Sunday 23:30 local is not the Monday holiday, even though it is already Monday in UTC.
    const always: Schedule = { holidays: ["2026-03-02"], hours: [] };
    expect(openAt(always, at("2026-03-02T02:30:00Z"))).toBe(true);
    expect(openAt(always, at("2026-03-02T03:00:00Z"))).toBe(false);
    expect(openAt(always, at("2026-03-03T02:59:59Z"))).toBe(false);
  });

  it("a department with hours of its own follows them; others fall back to the account's", () => {
    const d: Schedule = { holidays: [], hours: [...weekdays, row(1, "12:00", "14:00", DEPT)] };
    expect(openAt(d, at("2026-03-02T12:00:00Z"), DEPT)).toBe(false); // Mon 09:00: account open, department not yet
    expect(openAt(d, at("2026-03-02T15:30:00Z"), DEPT)).toBe(true); // Mon 12:30
    expect(openAt(d, at("2026-03-02T12:00:00Z"), OTHER)).toBe(true); // no hours of its own
    expect(openAt(d, at("2026-03-02T12:00:00Z"))).toBe(true);
    const onlyDept: Schedule = { holidays: [], hours: [row(1, "12:00", "14:00", DEPT)] };
    expect(openAt(onlyDept, at("2026-03-02T12:00:00Z"))).toBe(true); // nothing account-wide: open
  });

  it("several intervals on one day (lunch break)", () => {
    const split: Schedule = { holidays: [], hours: [row(3, "08:00", "12:00"), row(3, "13:00", "17:00")] };
    expect(openAt(split, at("2026-03-04T14:59:00Z"))).toBe(true); // Wed 11:59
    expect(openAt(split, at("2026-03-04T15:30:00Z"))).toBe(false); // Wed 12:30
    expect(openAt(split, at("2026-03-04T16:00:00Z"))).toBe(true); // Wed 13:00
  });
});
