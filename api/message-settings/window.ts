/**
 * The marketing window (ADR 071): campaigns go out only on the listed weekdays (0 = Sunday)
 * between `start` and `end`, minutes of the day in America/Sao_Paulo. Pure: the accept paths of
 * every channel ask `marketingSlot` when they start a campaign.
 */
import { formatInTimeZone, fromZonedTime } from "date-fns-tz";
import { minuteLabel as hhmm } from "./constants";

export { parseMinute } from "./constants";

export const ZONE = "America/Sao_Paulo";
export type MarketingWindow = { enabled: boolean; start: number; end: number; days: number[] };

/** São Paulo's calendar date (yyyy-MM-dd), weekday (0 = Sunday) and minute of the day of an instant. */
function local(at: Date) {
  const [date, dow, hh, mm] = formatInTimeZone(at, ZONE, "yyyy-MM-dd|i|HH|mm").split("|");
  return { date, weekday: Number(dow) % 7, minute: Number(hh) * 60 + Number(mm) };
}

function addDays(date: string, days: number) {
  const d = new Date(`${date}T12:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

/**
 * When a campaign meant for `at` may go: null when `at` is inside the window (or there is none),
 * else the window's next opening (São Paulo's `start` on the next listed weekday).
 */
export function marketingSlot(w: MarketingWindow | null | undefined, at: Date): Date | null {
  if (!w?.enabled || w.days.length === 0) return null;
  const now = local(at);
  if (w.days.includes(now.weekday) && now.minute >= w.start && now.minute < w.end) return null;
  for (let ahead = 0; ahead <= 7; ahead++) {
    const weekday = (now.weekday + ahead) % 7;
    if (!w.days.includes(weekday)) continue;
    if (ahead === 0 && now.minute >= w.start) continue;
    return fromZonedTime(`${addDays(now.date, ahead)}T${hhmm(w.start)}:00`, ZONE);
  }
  return null;
}
