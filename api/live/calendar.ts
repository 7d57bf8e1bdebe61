/**
 * Holidays (/holidays) and weekly opening hours (/opening-hours, plan permission opening_hour),
 * in São Paulo local dates and times. Whether the account is open at a moment: hours.ts.
 */
import { recordAudit } from "../audit/record";
import type { SignedInCtx } from "../lib/context";
import { AppError } from "../lib/errors";
import { assertId } from "../lib/owned";
import { validate } from "../lib/validate";
import { keyset } from "../lib/page";
import { livePage } from "./config-page";
import { sequelize } from "../../models";
import { assertDepartments, assertPath, assertWriter, iso, isUniqueViolation } from "./access";
import { rows } from "../lib/sql";
import { holidaySchema, openingHourSchema } from "./schemas";

const HOLIDAYS = "/holidays";
const HOURS = "/opening-hours";

export type HolidayView = { id: string; name: string; day: string; created_at: string };
type HolidayRow = Omit<HolidayView, "created_at"> & { created_at: Date };
const HOLIDAY_COLS = `id, name, to_char(day, 'YYYY-MM-DD') AS day, created_at`;

export async function listHolidays(ctx: SignedInCtx): Promise<HolidayView[]> {
  assertPath(ctx, HOLIDAYS);
  const r = await rows<HolidayRow>(`SELECT ${HOLIDAY_COLS} FROM live_holidays WHERE account_id = $1 ORDER BY day`, [ctx.actor.accountId]);
  return r.map((h) => ({ ...h, created_at: iso(h.created_at)! }));
}

/** GET /live/holidays: a keyset page (?cursor=&limit=) by day (one holiday per day). */
export async function pageHolidays(ctx: SignedInCtx, query: unknown) {
  assertPath(ctx, HOLIDAYS);
  const { after, limit } = livePage(query, ["string"], ([day]) => /^\d{4}-\d{2}-\d{2}$/.test(String(day)));
  const r = await rows<HolidayRow>(
    `SELECT ${HOLIDAY_COLS} FROM live_holidays WHERE account_id = $1 ${after ? "AND (day, id) > ($2::date, $3::uuid)" : ""} ORDER BY day, id LIMIT ${limit + 1}`,
    after ? [ctx.actor.accountId, after[0], after[1]] : [ctx.actor.accountId],
  );
  return keyset(
    r,
    limit,
    (h) => [h.day, h.id],
    (h) => ({ ...h, created_at: iso(h.created_at)! }),
  );
}

/** One holiday of the account. */
export async function getHoliday(ctx: SignedInCtx, id: string): Promise<HolidayView> {
  assertPath(ctx, HOLIDAYS);
  assertId(id);
  const [h] = await rows<HolidayRow>(`SELECT ${HOLIDAY_COLS} FROM live_holidays WHERE id = $1 AND account_id = $2`, [id, ctx.actor.accountId]);
  if (!h) throw new AppError("NOT_FOUND");
  return { ...h, created_at: iso(h.created_at)! };
}

/** A day already registered (or any other failure to store it) is the spec's 'error registering holidays'. */
export async function createHoliday(ctx: SignedInCtx, input: unknown): Promise<HolidayView> {
  assertWriter(ctx, HOLIDAYS);
  const v = validate(holidaySchema, input);
  try {
    const [h] = await rows<HolidayRow>(`INSERT INTO live_holidays (account_id, name, day) VALUES ($1, $2, $3::date) RETURNING ${HOLIDAY_COLS}`, [
      ctx.actor.accountId,
      v.name,
      v.day,
    ]);
    await recordAudit(ctx, "live.holiday_created", { meta: { id: h.id, day: h.day } });
    return { ...h, created_at: iso(h.created_at)! };
  } catch (e) {
    if (isUniqueViolation(e)) throw new AppError("HOLIDAY_REGISTER_FAILED", { fields: { day: ["live.holidays.dayTaken"] } });
    throw new AppError("HOLIDAY_REGISTER_FAILED");
  }
}

export async function deleteHoliday(ctx: SignedInCtx, id: string): Promise<{ id: string; name: string }> {
  assertWriter(ctx, HOLIDAYS);
  assertId(id);
  const [r] = await rows<{ id: string; name: string }>(`DELETE FROM live_holidays WHERE id = $1 AND account_id = $2 RETURNING id, name`, [id, ctx.actor.accountId]);
  if (!r) throw new AppError("NOT_FOUND");
  await recordAudit(ctx, "live.holiday_deleted", { meta: { id } });
  return r;
}

export type OpeningHourView = { id: string; weekday: number; opens: string; closes: string; department_id: string | null; department_name: string | null };

export async function listOpeningHours(ctx: SignedInCtx): Promise<OpeningHourView[]> {
  assertPath(ctx, HOURS);
  return rows<OpeningHourView>(
    `SELECT h.id, h.weekday, to_char(h.opens, 'HH24:MI') AS opens, CASE WHEN h.closes = '24:00' THEN '24:00' ELSE to_char(h.closes, 'HH24:MI') END AS closes,
            h.department_id, d.name AS department_name
       FROM live_opening_hours h LEFT JOIN departments d ON d.id = h.department_id
      WHERE h.account_id = $1
      ORDER BY d.name NULLS FIRST, h.weekday, h.opens`,
    [ctx.actor.accountId],
  );
}

/** One interval for each chosen weekday (optionally for one department). Overlaps with an existing interval are refused. */
export async function createOpeningHours(ctx: SignedInCtx, input: unknown): Promise<{ created: number; ids: string[] }> {
  assertWriter(ctx, HOURS);
  const v = validate(openingHourSchema, input);
  if (v.department_id) await assertDepartments(ctx, [v.department_id], "department_id");
  return sequelize().transaction(async (transaction) => {
    // One writer per account at a time, so two overlapping posts cannot both pass the check.
    await rows(`SELECT pg_advisory_xact_lock(hashtext('live_opening_hours:' || $1))`, [ctx.actor.accountId], { transaction });
    const overlap = await rows(
      `SELECT 1 FROM live_opening_hours
        WHERE account_id = $1 AND department_id IS NOT DISTINCT FROM $2::uuid AND weekday = ANY($3::smallint[])
          AND opens < $5::time AND closes > $4::time LIMIT 1`,
      [ctx.actor.accountId, v.department_id, v.weekdays, v.opens, v.closes],
      { transaction },
    );
    if (overlap.length) throw new AppError("VALIDATION", { fields: { opens: ["live.hours.overlap"] } });
    const ids: string[] = [];
    for (const weekday of v.weekdays) {
      const [{ id }] = await rows<{ id: string }>(
        `INSERT INTO live_opening_hours (account_id, department_id, weekday, opens, closes) VALUES ($1, $2, $3, $4::time, $5::time) RETURNING id`,
        [ctx.actor.accountId, v.department_id, weekday, v.opens, v.closes],
        { transaction },
      );
      ids.push(id);
    }
    await recordAudit({ ...ctx, transaction }, "live.opening_hours_created", { meta: { weekdays: v.weekdays, opens: v.opens, closes: v.closes, departmentId: v.department_id } });
    return { created: v.weekdays.length, ids };
  });
}

export async function deleteOpeningHour(ctx: SignedInCtx, id: string): Promise<{ id: string }> {
  assertWriter(ctx, HOURS);
  assertId(id);
  const [r] = await rows<{ id: string }>(`DELETE FROM live_opening_hours WHERE id = $1 AND account_id = $2 RETURNING id`, [id, ctx.actor.accountId]);
  if (!r) throw new AppError("NOT_FOUND");
  await recordAudit(ctx, "live.opening_hour_deleted", { meta: { id } });
  return r;
}
