/**
 * Per-user mute and volume while attending (spec sections 4 and 9): mute disabled, 8 hours,
 * 1 week, 1 month (30 days) or always; volume 0..1, default 1. Stored on the user's live_agents
 * row of the account; a timed mute that has run out reads as disabled.
 */
import { recordAudit } from "../audit/record";
import type { SignedInCtx } from "../lib/context";
import { validate } from "../lib/validate";
import { assertPath, iso } from "./access";
import { rows } from "../lib/sql";
import { preferencesSchema, type MuteOption } from "./schemas";

const PATH = "/live/preferences";
const HOUR = 3_600_000;
export const MUTE_DURATION_MS: Record<Exclude<MuteOption, "disabled" | "always">, number> = { "8h": 8 * HOUR, "1w": 7 * 24 * HOUR, "1m": 30 * 24 * HOUR };

export type PreferencesView = { mute: MuteOption; mute_until: string | null; muted: boolean; volume: number };

/** When a mute chosen at `now` ends (null: never ends, or not muted). */
export function muteUntil(mute: MuteOption, now: Date): Date | null {
  return mute === "disabled" || mute === "always" ? null : new Date(now.getTime() + MUTE_DURATION_MS[mute]);
}

export function preferencesView(r: { mute: MuteOption; mute_until: Date | string | null; volume: number } | undefined, now = new Date()): PreferencesView {
  if (!r) return { mute: "disabled", mute_until: null, muted: false, volume: 1 };
  const until = r.mute_until ? new Date(r.mute_until) : null;
  const expired = r.mute !== "always" && r.mute !== "disabled" && (!until || until <= now);
  const mute = expired ? "disabled" : r.mute;
  return { mute, mute_until: expired ? null : iso(until), muted: mute !== "disabled", volume: Number(r.volume) };
}

export async function getPreferences(ctx: SignedInCtx): Promise<PreferencesView> {
  assertPath(ctx, PATH);
  const [r] = await rows<{ mute: MuteOption; mute_until: Date | null; volume: number }>(`SELECT mute, mute_until, volume FROM live_agents WHERE account_id = $1 AND user_id = $2`, [
    ctx.actor.accountId,
    ctx.actor.userId,
  ]);
  return preferencesView(r);
}

export async function setPreferences(ctx: SignedInCtx, input: unknown, now = new Date()): Promise<PreferencesView> {
  assertPath(ctx, PATH);
  const v = validate(preferencesSchema, input);
  const until = muteUntil(v.mute, now);
  const [r] = await rows<{ mute: MuteOption; mute_until: Date | null; volume: number }>(
    `INSERT INTO live_agents (account_id, user_id, mute, mute_until, volume) VALUES ($1, $2, $3, $4, $5)
     ON CONFLICT (account_id, user_id) DO UPDATE SET mute = EXCLUDED.mute, mute_until = EXCLUDED.mute_until, volume = EXCLUDED.volume
     RETURNING mute, mute_until, volume`,
    [ctx.actor.accountId, ctx.actor.userId, v.mute, until, v.volume],
  );
  await recordAudit(ctx, "live.preferences_updated", { meta: { mute: v.mute, volume: v.volume } });
  return preferencesView(r, now);
}
