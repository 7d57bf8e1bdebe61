/**
 * The send screen's schedule field: an <input type="datetime-local"> value ("2026-11-22T14:30")
 * read as São Paulo wall-clock time, turned into ISO 8601 with that zone's offset at that moment
 * ("2026-11-22T14:30:00-03:00"), the form the API takes. Pure (Intl only).
 */
export const SCHEDULE_TIME_ZONE = "America/Sao_Paulo";

/** "GMT-03:00" style offset of `zone` at `at`, as "-03:00". */
function offsetAt(at: Date, zone: string): string {
  const name = new Intl.DateTimeFormat("en-US", { timeZone: zone, timeZoneName: "longOffset" }).formatToParts(at).find((p) => p.type === "timeZoneName")?.value ?? "GMT";
  const m = /GMT([+-]\d{2}):?(\d{2})?/.exec(name);
  return m ? `${m[1]}:${m[2] ?? "00"}` : "+00:00";
}

/** null for blank; undefined when it is not a datetime-local value; else ISO with the zone's offset. */
export function localToIso(local: string | null | undefined, zone = SCHEDULE_TIME_ZONE): string | null | undefined {
  const s = (local ?? "").trim();
  if (!s) return null;
  const m = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2}))?$/.exec(s);
  if (!m) return undefined;
  const asUtc = new Date(`${m[1]}-${m[2]}-${m[3]}T${m[4]}:${m[5]}:${m[6] ?? "00"}Z`);
  if (Number.isNaN(asUtc.getTime())) return undefined;
  // The offset at the wall-clock time read as UTC, then re-checked at the real instant (zones that move their clocks).
  let offset = offsetAt(asUtc, zone);
  const real = new Date(`${m[1]}-${m[2]}-${m[3]}T${m[4]}:${m[5]}:${m[6] ?? "00"}${offset}`);
  offset = offsetAt(real, zone);
  return `${m[1]}-${m[2]}-${m[3]}T${m[4]}:${m[5]}:${m[6] ?? "00"}${offset}`;
}

/** The datetime-local value of an instant in the zone ("2026-11-22T14:30"). */
export function isoToLocal(at: Date, zone = SCHEDULE_TIME_ZONE): string {
  const p = Object.fromEntries(
    new Intl.DateTimeFormat("en-CA", { timeZone: zone, year: "numeric", month: "2-digit", day: "2-digit", hour: "2-digit", minute: "2-digit", hourCycle: "h23" })
      .formatToParts(at)
      .map((x) => [x.type, x.value]),
  );
  return `${p.year}-${p.month}-${p.day}T${p.hour}:${p.minute}`;
}
