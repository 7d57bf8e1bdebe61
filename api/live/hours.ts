/**
 * Opening hours and holidays: is the account (or one department) attending at a moment? The
 * widget shows its offline form when not. Rules:
 *  - a holiday (a São Paulo calendar day) is closed all day;
 *  - a department with hours of its own follows them, otherwise the account-wide hours apply;
 *  - with no hours configured for it at all, it is always open;
 *  - otherwise open when a row of that weekday has opens <= local time < closes (closes may be 24:00).
 * `openAt` is pure; `isOpen` reads the account's rows and calls it.
 */
import { rows } from "../lib/sql";

export const LIVE_TIME_ZONE = "America/Sao_Paulo";

export type OpeningRow = { department_id: string | null; weekday: number; opens: string; closes: string };
export type Schedule = { holidays: string[]; hours: OpeningRow[] };

const fmt = new Intl.DateTimeFormat("en-US", {
  timeZone: LIVE_TIME_ZONE,
  year: "numeric",
  month: "2-digit",
  day: "2-digit",
  hour: "2-digit",
  minute: "2-digit",
  second: "2-digit",
  weekday: "short",
  hourCycle: "h23",
});
const WEEKDAY: Record<string, number> = { Sun: 0, Mon: 1, Tue: 2, Wed: 3, Thu: 4, Fri: 5, Sat: 6 };

/** São Paulo's calendar day (YYYY-MM-DD), weekday (0 = Sunday) and time (HH:MM:SS) at `at`. */
export function localParts(at: Date): { day: string; weekday: number; time: string } {
  const p = Object.fromEntries(fmt.formatToParts(at).map((x) => [x.type, x.value]));
  return { day: `${p.year}-${p.month}-${p.day}`, weekday: WEEKDAY[p.weekday], time: `${p.hour}:${p.minute}:${p.second}` };
}

/** "8:00", "08:00" or "08:00:00" -> "08:00:00" (Postgres answers time as HH:MM:SS). */
export function normalizeTime(t: string): string {
  const [h, m = "00", s = "00"] = t.split(":");
  return `${h.padStart(2, "0")}:${m.padStart(2, "0")}:${s.slice(0, 2).padStart(2, "0")}`;
}

export function openAt(schedule: Schedule, at: Date, departmentId?: string | null): boolean {
  const local = localParts(at);
  if (schedule.holidays.includes(local.day)) return false;
  const own = departmentId ? schedule.hours.filter((h) => h.department_id === departmentId) : [];
  const applicable = own.length ? own : schedule.hours.filter((h) => h.department_id === null);
  if (applicable.length === 0) return true;
  return applicable.some((h) => h.weekday === local.weekday && normalizeTime(h.opens) <= local.time && local.time < normalizeTime(h.closes));
}

/** The account's holidays on São Paulo's `day` (with their names) and all its opening hours. */
async function readSchedule(accountId: string, day: string) {
  const [holidays, hours] = await Promise.all([
    rows<{ day: string; name: string }>(`SELECT to_char(day, 'YYYY-MM-DD') AS day, name FROM live_holidays WHERE account_id = $1 AND day = $2::date`, [accountId, day]),
    rows<OpeningRow>(`SELECT department_id, weekday, opens::text AS opens, closes::text AS closes FROM live_opening_hours WHERE account_id = $1`, [accountId]),
  ]);
  return { holidays, hours };
}

/** Is the account (or `departmentId`) open at `at`? Public: the widget calls it without an actor. */
export async function isOpen(accountId: string, at: Date, departmentId?: string | null): Promise<boolean> {
  const { holidays, hours } = await readSchedule(accountId, localParts(at).day);
  return openAt({ holidays: holidays.map((h) => h.day), hours }, at, departmentId);
}

export type DaySchedule = {
  /** São Paulo's day at `at` (YYYY-MM-DD). */
  day: string;
  /** The holiday's name when the day is one (closed all day). */
  holiday: string | null;
  /** Whether the account has account-wide hours at all (without them it is always open). */
  configured: boolean;
  /** The account-wide hours of the day's weekday, by opening time (HH:MM:SS). */
  hours: Array<{ opens: string; closes: string }>;
  /** Open now (account-wide), as `isOpen`. */
  open: boolean;
};

/** The account's São Paulo day at `at` as the widget lives it (account-wide): holiday, hours of the weekday, open now. */
export async function daySchedule(accountId: string, at: Date): Promise<DaySchedule> {
  const local = localParts(at);
  const { holidays, hours } = await readSchedule(accountId, local.day);
  const accountWide = hours.filter((h) => h.department_id === null);
  return {
    day: local.day,
    holiday: holidays[0]?.name ?? null,
    configured: accountWide.length > 0,
    hours: accountWide
      .filter((h) => h.weekday === local.weekday)
      .map((h) => ({ opens: normalizeTime(h.opens), closes: normalizeTime(h.closes) }))
      .sort((a, b) => a.opens.localeCompare(b.opens)),
    open: openAt({ holidays: holidays.map((h) => h.day), hours }, at),
  };
}
