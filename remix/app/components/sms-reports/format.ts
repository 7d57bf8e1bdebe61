import { intlLocale, type Lng } from "~/lib/i18n";

/** A São Paulo day "YYYY-MM-DD" as the reader's short day and month (e.g. 21/11). */
export function formatDay(day: string, lng: Lng, withYear = false) {
  return new Intl.DateTimeFormat(intlLocale[lng] ?? "pt-BR", { day: "2-digit", month: "2-digit", ...(withYear ? { year: "numeric" } : {}), timeZone: "UTC" }).format(
    new Date(`${day}T12:00:00Z`),
  );
}

export function formatCount(n: number, lng: Lng) {
  return new Intl.NumberFormat(intlLocale[lng] ?? "pt-BR").format(n);
}

export function formatPercent(ratio: number, lng: Lng) {
  return new Intl.NumberFormat(intlLocale[lng] ?? "pt-BR", { style: "percent", minimumFractionDigits: 1, maximumFractionDigits: 1 }).format(ratio);
}

/** A date and time with seconds in São Paulo (detail screens). */
export function formatDateTime(value: string | Date | null | undefined, lng: Lng) {
  if (!value) return "";
  return new Intl.DateTimeFormat(intlLocale[lng] ?? "pt-BR", {
    timeZone: "America/Sao_Paulo",
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
    hour: "2-digit",
    minute: "2-digit",
    second: "2-digit",
    hour12: false,
  }).format(typeof value === "string" ? new Date(value) : value);
}
