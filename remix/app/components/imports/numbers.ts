/** Counts, rates and file sizes in the reader's language (Intl). */
import { intlLocale, type Lng } from "~/lib/i18n";

export function formatCount(n: number, lng: Lng) {
  return new Intl.NumberFormat(intlLocale[lng] ?? "pt-BR", { maximumFractionDigits: 0 }).format(n);
}

export function formatBytes(bytes: number, lng: Lng) {
  const units = ["byte", "kilobyte", "megabyte", "gigabyte"] as const;
  let value = bytes;
  let i = 0;
  while (value >= 1024 && i < units.length - 1) {
    value /= 1024;
    i++;
  }
  return new Intl.NumberFormat(intlLocale[lng] ?? "pt-BR", { style: "unit", unit: units[i], unitDisplay: "short", maximumFractionDigits: i === 0 ? 0 : 1 }).format(value);
}
