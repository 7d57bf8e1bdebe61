import { describe, expect, it } from "vitest";
import { CHANNEL_PRICING, type ChannelPricing, pickPrices } from "./pricing";

const row = (route: string, price: number | string, currency = "BRL", id = `id-${route}`) => ({ id, route, price_per_segment: price, currency });

describe("the price rule (pickPrices, behind resolvePrices)", () => {
  const sms = CHANNEL_PRICING.sms;

  it("an own row in the account's currency is the price, with its id", () => {
    expect(pickPrices(sms, "BRL", [row("T2", "5")])).toEqual([
      { route: "T1", pricePerSegment: 8, currency: "BRL", priceId: null },
      { route: "T2", pricePerSegment: 5, currency: "BRL", priceId: "id-T2" },
    ]);
    expect(pickPrices(sms, "BRL", [row("T1", 7)])).toEqual([{ route: "T1", pricePerSegment: 7, currency: "BRL", priceId: "id-T1" }]);
  });

  it("an own row in another currency hides the route, even one with a default", () => {
    expect(pickPrices(sms, "BRL", [row("T1", 7, "USD"), row("T4", 3, "USD")])).toEqual([]);
    // char(3) comes back padded: compared trimmed
    expect(pickPrices(sms, "USD", [row("T1", 7, "USD ")])).toEqual([{ route: "T1", pricePerSegment: 7, currency: "USD", priceId: "id-T1" }]);
  });

  it("without an own row, the channel's default; no default, the route is not offered", () => {
    expect(pickPrices(sms, "BRL", [])).toEqual([{ route: "T1", pricePerSegment: 8, currency: "BRL", priceId: null }]);
    expect(pickPrices(sms, "EUR", [])).toEqual([{ route: "T1", pricePerSegment: 8, currency: "EUR", priceId: null }]);
  });

  it("takes the channel's pricing as a parameter: its routes in order, its defaults", () => {
    const other: ChannelPricing<"a" | "b" | "c"> = { table: "other_prices", routes: ["c", "a", "b"], defaults: { a: 1, b: 2 } };
    expect(pickPrices(other, "BRL", [row("a", 9), row("b", 4, "USD"), row("x", 1)])).toEqual([{ route: "a", pricePerSegment: 9, currency: "BRL", priceId: "id-a" }]);
  });
});
