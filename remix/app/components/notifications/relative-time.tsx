/** "3 minutes ago" through Intl.RelativeTimeFormat, with the absolute date (São Paulo time) as its title. */
import { formatDate } from "~/lib/format";
import { intlLocale, type Lng } from "~/lib/i18n";

const UNITS: Array<[Intl.RelativeTimeFormatUnit, number]> = [
  ["year", 365 * 86_400],
  ["month", 30 * 86_400],
  ["week", 7 * 86_400],
  ["day", 86_400],
  ["hour", 3600],
  ["minute", 60],
];

export function relativeTime(date: Date, lng: Lng, now = Date.now()) {
  const seconds = Math.round((date.getTime() - now) / 1000);
  const rtf = new Intl.RelativeTimeFormat(intlLocale[lng] ?? "pt-BR", { numeric: "auto" });
  for (const [unit, size] of UNITS) {
    if (Math.abs(seconds) >= size) return rtf.format(Math.trunc(seconds / size), unit);
  }
  return rtf.format(0, "second");
}

export function RelativeTime({ value, lng }: { value: string | Date; lng: Lng }) {
  const d = typeof value === "string" ? new Date(value) : value;
  const absolute = formatDate(d, lng, true);
  return (
    <time dateTime={d.toISOString()} title={absolute} suppressHydrationWarning>
      {relativeTime(d, lng)} <span className="text-muted-foreground">· {absolute}</span>
    </time>
  );
}
