/**
 * The deals of a live-chat room or of a contact (issue 22), with "create deal": a plain POST to
 * /pipelines (its action makes the deal linked to the room or contact and opens it). Works
 * without JavaScript. `panel` comes from lib/pipeline-links.server (null: boards not available).
 */
import { Form, Link } from "@remix-run/react";
import { CsrfInput } from "~/components/forms/fields";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { Label } from "~/components/ui/label";
import { NativeSelect, NativeSelectOption } from "~/components/ui/native-select";
import { useTranslation } from "~/lib/react-i18n";
import { usePipelineFormat } from "./format";

export type LinkedDealsPanel = {
  deals: Array<{ id: string; board_id: string; board_name: string; column_name: string; lead_name: string; value_cents: number; outcome: string | null; archived: boolean }>;
  boards: Array<{ id: string; name: string }>;
};

export function LinkedDeals({ panel, roomId, contactId, compact }: { panel: LinkedDealsPanel; roomId?: string; contactId?: string; compact?: boolean }) {
  const { t } = useTranslation("pipelines");
  const f = usePipelineFormat();
  const idBase = roomId ? `room-${roomId}` : `contact-${contactId}`;
  return (
    <section className="space-y-2" aria-labelledby={`${idBase}-deals`} data-linked-deals>
      <h2 id={`${idBase}-deals`} className={compact ? "font-semibold" : "text-lg font-semibold"}>
        {t("linked.title")}
      </h2>
      {panel.deals.length === 0 ? (
        <p className="text-sm text-muted-foreground">{t("linked.empty")}</p>
      ) : (
        <ul className="space-y-1 text-sm">
          {panel.deals.map((d) => (
            <li key={d.id} className="flex flex-wrap items-center gap-x-2 gap-y-1" data-linked-deal={d.id}>
              <Link to={`/pipelines/${d.board_id}/deals/${d.id}`} className="font-medium underline">
                {d.lead_name}
              </Link>
              <span className="text-muted-foreground">
                {d.board_name} · {d.column_name} · {f.money(d.value_cents)}
              </span>
              {d.outcome ? <Badge variant={d.outcome === "sold" ? "success" : "secondary"}>{t(`outcome.${d.outcome}`)}</Badge> : null}
              {d.archived ? <Badge variant="secondary">{t("deal.archivedBadge")}</Badge> : null}
            </li>
          ))}
        </ul>
      )}
      {panel.boards.length === 0 ? (
        <p className="text-sm text-muted-foreground">
          {t("linked.noBoards")}{" "}
          <Link to="/pipelines" className="underline">
            {t("linked.createBoard")}
          </Link>
        </p>
      ) : (
        <Form method="post" action="/pipelines?index" className="space-y-2">
          <CsrfInput />
          <input type="hidden" name="intent" value={roomId ? "deal-from-room" : "deal-from-contact"} />
          {roomId ? <input type="hidden" name="room_id" value={roomId} /> : <input type="hidden" name="contact_id" value={contactId} />}
          {panel.boards.length > 1 ? (
            <div className="space-y-1">
              <Label htmlFor={`${idBase}-deal-board`}>{t("linked.board")}</Label>
              <NativeSelect id={`${idBase}-deal-board`} name="board_id" defaultValue={panel.boards[0].id}>
                {panel.boards.map((b) => (
                  <NativeSelectOption key={b.id} value={b.id}>
                    {b.name}
                  </NativeSelectOption>
                ))}
              </NativeSelect>
            </div>
          ) : (
            <input type="hidden" name="board_id" value={panel.boards[0].id} />
          )}
          <Button type="submit" size="sm" variant="outline" className={compact ? "w-full" : undefined}>
            {t("linked.create")}
          </Button>
        </Form>
      )}
    </section>
  );
}
