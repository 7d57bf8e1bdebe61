/**
 * How the boards' screens show money and dates: integer minor units in the account's currency
 * (the shell's), dates in the reader's language; a deal's due date is a calendar day (no zone).
 */
import type { FieldMetadata } from "@conform-to/react";
import { useRouteLoaderData } from "@remix-run/react";
import { formatDate, formatMoney } from "~/lib/format";
import type { Lng } from "~/lib/i18n";
import type { RootData } from "~/root";

const DAY: Record<Lng, (y: string, m: string, d: string) => string> = {
  "pt-BR": (y, m, d) => `${d}/${m}/${y.slice(2)}`,
  en: (y, m, d) => `${m}/${d}/${y.slice(2)}`,
  es: (y, m, d) => `${d}/${m}/${y.slice(2)}`,
  zh: (y, m, d) => `${y.slice(2)}/${m}/${d}`,
};

/** A calendar day (YYYY-MM-DD) in the reader's short form, without a time zone shift. */
export function formatDay(day: string | null | undefined, lng: Lng): string {
  const m = /^(\d{4})-(\d{2})-(\d{2})/.exec(day ?? "");
  return m ? DAY[lng](m[1], m[2], m[3]) : "—";
}

export function usePipelineFormat() {
  const lng = (useRouteLoaderData<RootData>("root")?.lng ?? "pt-BR") as Lng;
  // The shell's account (routes/_app's loader), read by its route id: importing the route module here would bring its server code along.
  const shell = useRouteLoaderData<{ account?: { currency?: string } }>("routes/_app");
  const currency = shell?.account?.currency ?? "BRL";
  return {
    lng,
    currency,
    money: (cents: number | string | null | undefined) => formatMoney(Number(cents ?? 0), currency, lng),
    day: (d: string | null | undefined) => formatDay(d, lng),
    when: (d: string | Date | null | undefined, withTime = true) => formatDate(d ?? null, lng, withTime),
  };
}

export const PRIORITY_VARIANT = { low: "secondary", normal: "outline", high: "warning", urgent: "destructive" } as const;

/**
 * A field of a schema whose input is preprocessed (an id, a priority, money typed as text: zod's
 * input type is `unknown`) as the text control it is on the form.
 */
export function asText<F>(field: F): FieldMetadata<string | null | undefined> {
  return field as unknown as FieldMetadata<string | null | undefined>;
}
