/**
 * The deals panel of a live-chat room (/live) and of a contact's page (/contacts/{id}): the deals
 * linked to it (api/pipelines/services dealsForRoom / dealsForContact) and the boards a new one
 * may go to — or null when the person may not use boards (the panel is not shown).
 */
import type { SignedInCtx } from "~api/lib/context";
import { canUseBoards, dealsForContact, dealsForRoom, listBoards } from "~api/pipelines/services";
import type { LinkedDealsPanel } from "~/components/pipelines/linked-deals";

export async function linkedDealsPanel(ctx: SignedInCtx, of: { roomId: string } | { contactId: string }): Promise<LinkedDealsPanel | null> {
  if (!canUseBoards(ctx.actor)) return null;
  const [{ data: deals }, { data: boards }] = await Promise.all(["roomId" in of ? dealsForRoom(ctx, of.roomId) : dealsForContact(ctx, of.contactId), listBoards(ctx)]);
  return {
    deals: deals.map((d) => ({
      id: d.id,
      board_id: d.board_id,
      board_name: d.board_name,
      column_name: d.column_name,
      lead_name: d.lead_name,
      value_cents: Number(d.value_cents),
      outcome: d.outcome,
      archived: d.archived_at !== null,
    })),
    boards: boards.map((b) => ({ id: b.id, name: b.name })),
  };
}
