/**
 * The board's columns and cards. The server and the first render show them as plain markup (every
 * card has its move form, see the route); once the page is hydrated the drag-and-drop version
 * (./board-dnd, with @dnd-kit) is loaded and takes over, so the library is not part of the
 * screen's first-load JavaScript (issue 19's budget, tests/integration/page-weight.test.ts).
 * The board carries data-dnd="ready" once cards can be dragged.
 */
import { GripVertical } from "lucide-react";
import { lazy, type ReactNode, Suspense, useEffect, useState } from "react";
import { useTranslation } from "~/lib/react-i18n";

export type BoardDeal = {
  id: string;
  lead_name: string;
  value_cents: number;
  priority: string;
  owner_name: string | null;
  due_date: string;
  version: number;
  outcome: string | null;
};
export type BoardColumn = { id: string; name: string; deals: BoardDeal[] };
export type MoveRequest = { deal: BoardDeal; fromColumnId: string; toColumnId: string; position: number; beforeDealId: string | null };

export type BoardProps = {
  columns: BoardColumn[];
  /** Posts the move; resolves false when the server refused it (the board then shows `columns` again). */
  onMove: (move: MoveRequest) => Promise<boolean>;
  renderCard: (deal: BoardDeal, columnId: string, handle: ReactNode) => ReactNode;
  renderColumnHead: (column: BoardColumn, count: number) => ReactNode;
  renderColumnFoot: (column: BoardColumn) => ReactNode;
};

// The drag-and-drop chunk is asked for as soon as this module runs in the browser (in parallel with
// hydration), so the plain board is replaced right after the page is hydrated.
let dnd: Promise<typeof import("./board-dnd")> | undefined;
const loadDnd = () => {
  dnd ??= import("./board-dnd");
  return dnd;
};
if (typeof document !== "undefined") void loadDnd();
const DndBoard = lazy(loadDnd);

export function Board(props: BoardProps) {
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  const still = <StillBoard {...props} />;
  return hydrated ? (
    <Suspense fallback={still}>
      <DndBoard {...props} />
    </Suspense>
  ) : (
    still
  );
}

/** The same columns and cards without drag and drop (before hydration, and without JavaScript). */
function StillBoard({ columns, renderCard, renderColumnHead, renderColumnFoot }: BoardProps) {
  const { t } = useTranslation("pipelines");
  return (
    <div className="-mx-1 overflow-x-auto pb-2" data-board>
      <div className="flex items-start gap-3 px-1">
        {columns.map((column) => (
          <section key={column.id} className="w-72 shrink-0 rounded-lg border bg-muted/40 p-2" data-column-id={column.id} aria-labelledby={`column-${column.id}-name`}>
            {renderColumnHead(column, column.deals.length)}
            <ol aria-label={t("board.cardsOf", { column: column.name })} className="min-h-16 space-y-2 rounded-md p-1" data-column-cards={column.id}>
              {column.deals.map((deal) => (
                <li key={deal.id} className="list-none" data-deal-id={deal.id} data-deal-version={deal.version}>
                  {renderCard(
                    deal,
                    column.id,
                    <span aria-hidden className="inline-flex size-8 shrink-0 items-center justify-center rounded-md text-muted-foreground/50">
                      <GripVertical className="size-4" />
                    </span>,
                  )}
                </li>
              ))}
            </ol>
            {renderColumnFoot(column)}
          </section>
        ))}
      </div>
    </div>
  );
}
