/**
 * The board's columns and cards with drag and drop (@dnd-kit: pointer and keyboard — focus a
 * card's handle, Space to pick it up, arrows to move it within and across columns, Space to drop,
 * Escape to cancel — with translated screen-reader announcements). Only this screen imports it,
 * so the library is in the board's own chunk (issue 19's budget).
 *
 * The move is optimistic: the card is shown where it was dropped at once, and `onMove` posts it;
 * when the server answers that the card changed meanwhile (someone else moved or edited it) the
 * board goes back to the server's state (`columns`, the loader's, revalidated by the caller).
 * Without JavaScript every card has its own move form (MoveForm) instead; the server render is
 * the same markup, the handles do nothing until the page is hydrated.
 */
import {
  type Announcements,
  closestCorners,
  DndContext,
  type DragEndEvent,
  type DragOverEvent,
  type DragStartEvent,
  KeyboardSensor,
  PointerSensor,
  type UniqueIdentifier,
  useDroppable,
  useSensor,
  useSensors,
} from "@dnd-kit/core";
import { SortableContext, sortableKeyboardCoordinates, useSortable, verticalListSortingStrategy } from "@dnd-kit/sortable";
import { CSS } from "@dnd-kit/utilities";
import { GripVertical } from "lucide-react";
import { type ReactNode, useEffect, useMemo, useRef, useState } from "react";
import { useTranslation } from "~/lib/react-i18n";
import { cn } from "~/lib/utils";

import type { BoardColumn, BoardDeal, BoardProps } from "./board";

type Items = Record<string, BoardDeal[]>;

const toItems = (columns: BoardColumn[]): Items => Object.fromEntries(columns.map((c) => [c.id, c.deals]));

function findColumn(items: Items, id: UniqueIdentifier): string | null {
  const key = String(id);
  if (key in items) return key;
  for (const [col, deals] of Object.entries(items)) if (deals.some((d) => d.id === key)) return col;
  return null;
}

function SortableCard({ deal, children }: { deal: BoardDeal; children: (handle: ReactNode) => ReactNode }) {
  const { t } = useTranslation("pipelines");
  const { attributes, listeners, setNodeRef, setActivatorNodeRef, transform, transition, isDragging } = useSortable({ id: deal.id });
  const handle = (
    <button
      type="button"
      ref={setActivatorNodeRef}
      {...attributes}
      {...listeners}
      aria-label={t("board.dragLabel", { name: deal.lead_name })}
      data-drag-handle={deal.id}
      className="inline-flex size-8 shrink-0 cursor-grab touch-none items-center justify-center rounded-md text-muted-foreground hover:bg-accent focus-visible:ring-[3px] focus-visible:ring-ring/50 focus-visible:outline-none active:cursor-grabbing"
    >
      <GripVertical aria-hidden className="size-4" />
    </button>
  );
  return (
    <li
      ref={setNodeRef}
      style={{ transform: CSS.Translate.toString(transform), transition }}
      className={cn("list-none", isDragging && "relative z-10 opacity-80")}
      data-deal-id={deal.id}
      data-deal-version={deal.version}
    >
      {children(handle)}
    </li>
  );
}

function ColumnDrop({ id, label, children }: { id: string; label: string; children: ReactNode }) {
  const { setNodeRef, isOver } = useDroppable({ id });
  return (
    <ol ref={setNodeRef} aria-label={label} className={cn("min-h-16 space-y-2 rounded-md p-1 transition-colors", isOver && "bg-accent/60")} data-column-cards={id}>
      {children}
    </ol>
  );
}

export default function DndBoard({ columns, onMove, renderCard, renderColumnHead, renderColumnFoot }: BoardProps) {
  const { t } = useTranslation("pipelines");
  const [items, setItems] = useState<Items>(() => toItems(columns));
  const [dragging, setDragging] = useState(false);
  const origin = useRef<{ column: string; index: number } | null>(null);
  const pending = useRef(0);
  const latest = useRef(columns);
  latest.current = columns;
  // The server's state (a load, a revalidation after someone's move) wins, except during a drag or while our own move is posting.
  useEffect(() => {
    if (!dragging && pending.current === 0) setItems(toItems(columns));
  }, [columns, dragging]);

  const sensors = useSensors(useSensor(PointerSensor, { activationConstraint: { distance: 5 } }), useSensor(KeyboardSensor, { coordinateGetter: sortableKeyboardCoordinates }));
  const names = useMemo(() => Object.fromEntries(columns.map((c) => [c.id, c.name])), [columns]);
  const dealName = (id: UniqueIdentifier) =>
    Object.values(items)
      .flat()
      .find((d) => d.id === String(id))?.lead_name ?? "";
  const where = (id: UniqueIdentifier | undefined) => {
    if (id === undefined) return null;
    const col = findColumn(items, id);
    if (!col) return null;
    const index = col === String(id) ? items[col].length : items[col].findIndex((d) => d.id === String(id));
    return { column: names[col] ?? "", position: index + 1 };
  };
  const announcements: Announcements = {
    onDragStart: ({ active }) => t("board.a11y.picked", { name: dealName(active.id), ...where(active.id) }),
    onDragOver: ({ active, over }) => (over ? t("board.a11y.over", { name: dealName(active.id), ...where(over.id) }) : t("board.a11y.outside", { name: dealName(active.id) })),
    onDragEnd: ({ active, over }) => (over ? t("board.a11y.dropped", { name: dealName(active.id), ...where(over.id) }) : t("board.a11y.cancelled", { name: dealName(active.id) })),
    onDragCancel: ({ active }) => t("board.a11y.cancelled", { name: dealName(active.id) }),
  };

  const onDragStart = ({ active }: DragStartEvent) => {
    const col = findColumn(items, active.id);
    origin.current = col ? { column: col, index: items[col].findIndex((d) => d.id === String(active.id)) } : null;
    setDragging(true);
  };

  // Across columns, the card joins the column it is over as it moves (so the keyboard can walk it through every column).
  const onDragOver = ({ active, over }: DragOverEvent) => {
    if (!over) return;
    const from = findColumn(items, active.id);
    const to = findColumn(items, over.id);
    if (!from || !to || from === to) return;
    setItems((prev) => {
      const moving = prev[from].find((d) => d.id === String(active.id));
      if (!moving) return prev;
      const target = prev[to].filter((d) => d.id !== moving.id);
      const overIndex = target.findIndex((d) => d.id === String(over.id));
      const at = overIndex >= 0 ? overIndex : target.length;
      return { ...prev, [from]: prev[from].filter((d) => d.id !== moving.id), [to]: [...target.slice(0, at), moving, ...target.slice(at)] };
    });
  };

  const onDragEnd = ({ active, over }: DragEndEvent) => {
    const start = origin.current;
    origin.current = null;
    setDragging(false);
    const col = findColumn(items, active.id);
    if (!start || !col) return setItems(toItems(columns));
    if (!over) return setItems(toItems(columns));
    let list = items[col];
    const from = list.findIndex((d) => d.id === String(active.id));
    const overIndex = list.findIndex((d) => d.id === String(over.id));
    if (overIndex >= 0 && overIndex !== from) {
      const next = [...list];
      next.splice(overIndex, 0, ...next.splice(from, 1));
      list = next;
      setItems((prev) => ({ ...prev, [col]: next }));
    }
    const index = list.findIndex((d) => d.id === String(active.id));
    if (col === start.column && index === start.index) return;
    const deal = list[index];
    pending.current++;
    void onMove({ deal, fromColumnId: start.column, toColumnId: col, position: index, beforeDealId: list[index + 1]?.id ?? null }).then((ok) => {
      pending.current--;
      // Settled (the caller's data is revalidated by then): the server's state, with the cards' new versions; or, refused, as it was.
      if (pending.current === 0 || !ok) setItems(toItems(latest.current));
    });
  };

  return (
    <DndContext
      id="pipeline-board"
      sensors={sensors}
      collisionDetection={closestCorners}
      onDragStart={onDragStart}
      onDragOver={onDragOver}
      onDragEnd={onDragEnd}
      onDragCancel={() => {
        origin.current = null;
        setDragging(false);
        setItems(toItems(columns));
      }}
      accessibility={{ announcements, screenReaderInstructions: { draggable: t("board.a11y.instructions") } }}
    >
      <div className="-mx-1 overflow-x-auto pb-2" data-board data-dnd="ready">
        <div className="flex items-start gap-3 px-1">
          {columns.map((column) => {
            const deals = items[column.id] ?? [];
            return (
              <section key={column.id} className="w-72 shrink-0 rounded-lg border bg-muted/40 p-2" data-column-id={column.id} aria-labelledby={`column-${column.id}-name`}>
                {renderColumnHead(column, deals.length)}
                <SortableContext id={column.id} items={deals.map((d) => d.id)} strategy={verticalListSortingStrategy}>
                  <ColumnDrop id={column.id} label={t("board.cardsOf", { column: column.name })}>
                    {deals.map((deal) => (
                      <SortableCard key={deal.id} deal={deal}>
                        {(handle) => renderCard(deal, column.id, handle)}
                      </SortableCard>
                    ))}
                  </ColumnDrop>
                </SortableContext>
                {renderColumnFoot(column)}
              </section>
            );
          })}
        </div>
      </div>
    </DndContext>
  );
}
