/** Shared by the /admin catalogue lists (ADR 064): the customers a filter offers (the first 200 in reach, by name; any other still filters by ?customer_id=). */
import type { SignedInCtx } from "~api/lib/context";
import { listCustomers } from "~api/customers/customers";

export async function customerOptions(ctx: SignedInCtx): Promise<Array<{ id: string; name: string }>> {
  const { data } = await listCustomers(ctx, { limit: "200" });
  return data.map((c) => ({ id: c.id, name: c.name }));
}
