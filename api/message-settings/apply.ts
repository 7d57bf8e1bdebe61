/**
 * How the account's message settings change a send (ADR 071), one place for every channel:
 * - the signature is appended to the text of the channels it is set for (every send);
 * - the opt-out text is appended to every SMS campaign message (a send to many);
 * - a campaign (a send to many) of any channel goes out inside the marketing window: started or
 *   scheduled outside it, it is scheduled for the window's next opening (./window.ts).
 * The request's idempotency hash is taken before, so a retry under the same key still matches.
 */
import { TEXT_SEPARATOR, type SignatureChannel } from "./constants";
import type { MessageSettings } from "./settings";
import { marketingSlot } from "./window";

/** The body with the signature (when set for `channel`) and, for a campaign, the opt-out text (SMS). */
export function withSettingsTexts(
  body: string,
  s: Pick<MessageSettings, "signature" | "signature_channels" | "optout_text">,
  channel: SignatureChannel,
  campaign: boolean,
): string {
  const parts = [body];
  if (s.signature && s.signature_channels.includes(channel)) parts.push(s.signature);
  if (campaign && channel === "sms" && s.optout_text) parts.push(s.optout_text);
  return parts.join(TEXT_SEPARATOR);
}

/** When a campaign goes: `scheduledAt` (or now) when inside the window, else the window's next opening. Null stays null (now) when inside. */
export function campaignSchedule(s: Pick<MessageSettings, "window">, scheduledAt: Date | null, now = new Date()): Date | null {
  return marketingSlot(s.window, scheduledAt ?? now) ?? scheduledAt;
}
