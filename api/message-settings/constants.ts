/** Limits and choices of the account's message settings (zod-free: the screens import them). */
export const SIGNATURE_MAX = 60;
export const OPTOUT_TEXT_MAX = 60;
export const EMAIL_FROM_NAME_MAX = 100;
/** Channels a signature may be appended to: their text is the customer's own (e-mail and RCS are composed content). */
export const SIGNATURE_CHANNELS = ["sms", "whatsapp"] as const;
export type SignatureChannel = (typeof SIGNATURE_CHANNELS)[number];
/** Weekdays in order from Monday (0 = Sunday), as the window's checkboxes show them. */
export const WEEKDAYS = [1, 2, 3, 4, 5, 6, 0] as const;
/** What a signature and the opt-out text are joined to a body with. */
export const TEXT_SEPARATOR = "\n";

/** "08:00" for minute 480; 1440 is "24:00" (the end of the day). */
export const minuteLabel = (minute: number) => `${String(Math.floor(minute / 60)).padStart(2, "0")}:${String(minute % 60).padStart(2, "0")}`;

/** The minute of the day of "HH:MM" (00:00 to 24:00), or null. */
export function parseMinute(value: string): number | null {
  const m = /^([01]\d|2[0-4]):([0-5]\d)$/.exec(value.trim());
  if (!m) return null;
  const minute = Number(m[1]) * 60 + Number(m[2]);
  return minute <= 1440 ? minute : null;
}
