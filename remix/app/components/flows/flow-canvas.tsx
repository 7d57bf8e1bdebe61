/**
 * The flow builder's canvas (issue 20): @xyflow/react, in its own chunk that the builder route
 * loads after hydration (React.lazy), so React Flow and the definition's check (zod) stay out of the
 * first load (ADR 052). The draft is the one source of truth: a palette adds each step type, the
 * side panel edits the selected step's data (the fields of api/flows/definition.ts DATA) and its
 * connections (one select per output, as handles do by dragging), with undo / redo (Ctrl+Z,
 * Ctrl+Shift+Z), copy / paste of the selected steps (Ctrl+C, Ctrl+V, new ids), delete, zoom
 * controls and a minimap. checkFlow runs as the draft changes and marks each faulty step; the
 * server's answer to a refused save or publish marks them too until the next change. Save and
 * Publish post the draft as JSON through the route's action (the same form as without JavaScript).
 */
import {
  applyNodeChanges,
  Background,
  type Connection,
  Controls,
  type Edge,
  type EdgeChange,
  Handle,
  MiniMap,
  type Node,
  type NodeChange,
  type NodeProps,
  Position,
  ReactFlow,
  ReactFlowProvider,
} from "@xyflow/react";
import "@xyflow/react/dist/style.css";
import { Form } from "@remix-run/react";
import { memo, useCallback, useEffect, useMemo, useRef, useState } from "react";
import type { SubmissionResult } from "@conform-to/react";
import { NODE_TYPES, type NodeType } from "~api/flows/constants";
import { checkFlow, type FlowNode, outputsOf } from "~api/flows/definition";
import { CsrfInput, FormErrors, useErrorText } from "~/components/forms/fields";
import { Button } from "~/components/ui/button";
import { NativeSelect, NativeSelectOption } from "~/components/ui/native-select";
import { useTranslation } from "~/lib/react-i18n";
import { cn } from "~/lib/utils";
import { NodePanel } from "./node-panel";
import { type DraftEdgeLike, type DraftLike, type DraftNodeLike, type IssueLike, issuesFromFields, nodeSummary } from "./summary";

type Draft = { nodes: DraftNodeLike[]; edges: DraftEdgeLike[] };
type StepData = { type: string; summary: string; outputs: string[]; issues: string[] };
type StepNode = Node<StepData, "step">;

/** A new step's data: the shape its type needs, to be filled in the side panel. */
const DEFAULT_DATA: Record<NodeType, () => Record<string, unknown>> = {
  start: () => ({}),
  message: () => ({ text: "" }),
  question: () => ({ text: "", check: "text", store: { kind: "variable", name: "answer" }, retries: 2 }),
  condition: () => ({ rules: [{ id: "rule1", subject: "variable", name: "", op: "equals", value: "" }] }),
  delay: () => ({ seconds: 60 }),
  http: () => ({ method: "GET", url: "https://", timeout_ms: 5000, map: [] }),
  action: () => ({ kind: "add_tag", name: "" }),
  handoff: () => ({}),
  end: () => ({}),
};

/** A step's outputs, also while its data is incomplete (a condition's rules as typed so far). */
export function outputsFor(n: DraftNodeLike): string[] {
  if (n.type === "condition") {
    const rules = (n.data as { rules?: Array<{ id?: unknown }> } | undefined)?.rules;
    return [...(Array.isArray(rules) ? rules.map((r) => (typeof r?.id === "string" ? r.id : "")).filter(Boolean) : []), "else"];
  }
  if (!(NODE_TYPES as readonly string[]).includes(n.type)) return [];
  try {
    return outputsOf({ ...n, data: n.data ?? {} } as FlowNode).all;
  } catch {
    return [];
  }
}

const freeId = (taken: Set<string>, base: string) => {
  for (let i = 1; ; i++) if (!taken.has(`${base}-${i}`)) return `${base}-${i}`;
};
const freeEdgeId = (edges: DraftEdgeLike[]) => {
  const taken = new Set(edges.map((e) => e.id));
  for (let i = edges.length + 1; ; i++) if (!taken.has(`e${i}`)) return `e${i}`;
};
/** JSON with each object's keys sorted: the same draft gives the same text whatever the order its keys came in. */
const canonical = (v: unknown): string =>
  JSON.stringify(v, (_k, x) => (x && typeof x === "object" && !Array.isArray(x) ? Object.fromEntries(Object.entries(x).sort(([a], [b]) => (a < b ? -1 : 1))) : x));
const positionOf = (n: DraftNodeLike, i: number) => n.position ?? { x: 0, y: i * 140 };

const StepView = memo(function StepView({ id, data, selected }: NodeProps<StepNode>) {
  const { t } = useTranslation("flows");
  const text = useErrorText();
  const bad = data.issues.length > 0;
  return (
    <div
      className={cn(
        "w-56 rounded-md border bg-card px-3 pt-2 pb-5 text-xs text-card-foreground shadow-sm",
        bad && "border-2 border-destructive",
        selected && "ring-2 ring-primary",
      )}
      data-testid={`step-${id}`}
      data-invalid={bad ? "true" : undefined}
    >
      {data.type !== "start" ? <Handle type="target" position={Position.Top} /> : null}
      <p className="font-semibold">
        {t(`nodes.${data.type}`, { defaultValue: data.type })} <span className="font-normal text-muted-foreground">{id}</span>
      </p>
      {data.summary ? <p className="line-clamp-2 break-words text-muted-foreground">{data.summary}</p> : null}
      {bad ? (
        <ul className="mt-1 text-destructive" data-testid="step-issues">
          {data.issues.map((k) => (
            <li key={k}>{text(k)}</li>
          ))}
        </ul>
      ) : null}
      {data.outputs.length ? (
        <div className="absolute inset-x-0 bottom-0 flex justify-around">
          {data.outputs.map((o) => (
            <span key={o} className="relative px-1 text-[10px] text-muted-foreground">
              {t(`outputs.${o}`, { defaultValue: o })}
              <Handle type="source" position={Position.Bottom} id={o} />
            </span>
          ))}
        </div>
      ) : null}
    </div>
  );
});

const NODE_VIEWS = { step: StepView };

type Props = {
  draft: DraftLike;
  answer?: SubmissionResult<string[]>;
  busy: boolean /** Told whether the canvas differs from the saved draft (the test panel runs the saved one). */;
  onDirtyChange?: (dirty: boolean) => void;
  /** The account's departments a hand-off may name. */
  departments: Array<{ id: string; name: string }>;
};

function Canvas({ draft, answer, busy, onDirtyChange, departments }: Props) {
  const { t } = useTranslation("flows");
  const text = useErrorText();
  // The history: what undo goes back to, the draft shown, what redo goes forward to.
  const [hist, setHist] = useState<{ past: Draft[]; present: Draft; future: Draft[] }>(() => ({ past: [], present: { nodes: draft.nodes, edges: draft.edges }, future: [] }));
  const def = hist.present;
  const [selected, setSelected] = useState<string[]>([]);
  const [selectedEdges, setSelectedEdges] = useState<string[]>([]);
  const [measured, setMeasured] = useState<Record<string, { width?: number; height?: number }>>({});
  const [showAnswer, setShowAnswer] = useState(true);
  const merge = useRef<string | null>(null);
  const dragFrom = useRef<Draft | null>(null);
  const clipboard = useRef<Draft | null>(null);
  const defRef = useRef(def);
  defRef.current = def;

  /** A change the history keeps (typing in one field of one step is one entry: `mergeKey`). */
  const commit = useCallback((next: Draft, mergeKey: string | null = null) => {
    const push = mergeKey === null || mergeKey !== merge.current;
    merge.current = mergeKey;
    setHist((h) => ({ past: push ? [...h.past.slice(-99), h.present] : h.past, present: next, future: [] }));
    setShowAnswer(false);
  }, []);

  // The server's draft changed under the canvas (a version restored): it becomes the canvas's, undoable. The
  // same draft answered back after a save (keys in another order) changes nothing.
  const synced = useRef(canonical({ nodes: draft.nodes, edges: draft.edges }));
  useEffect(() => {
    const json = canonical({ nodes: draft.nodes, edges: draft.edges });
    if (json === synced.current) return;
    synced.current = json;
    if (json === canonical(defRef.current)) return;
    merge.current = null;
    setHist((h) => ({ past: [...h.past.slice(-99), h.present], present: { nodes: draft.nodes, edges: draft.edges }, future: [] }));
  }, [draft]);
  useEffect(() => {
    if (answer) setShowAnswer(true);
  }, [answer]);
  const saved = useMemo(() => canonical({ nodes: draft.nodes, edges: draft.edges }), [draft]);
  useEffect(() => {
    onDirtyChange?.(canonical(def) !== saved);
  }, [def, saved, onDirtyChange]);

  const undo = useCallback(() => {
    merge.current = null;
    setHist((h) => (h.past.length ? { past: h.past.slice(0, -1), present: h.past[h.past.length - 1], future: [h.present, ...h.future] } : h));
  }, []);
  const redo = useCallback(() => {
    merge.current = null;
    setHist((h) => (h.future.length ? { past: [...h.past, h.present], present: h.future[0], future: h.future.slice(1) } : h));
  }, []);
  const past = hist.past;
  const future = hist.future;

  const checked = useMemo(() => checkFlow(def), [def]);
  const issues = useMemo(() => {
    const all: IssueLike[] = checked.ok ? [] : checked.issues;
    return showAnswer ? [...all, ...issuesFromFields(answer?.error as Record<string, string[]> | undefined)] : all;
  }, [checked, answer, showAnswer]);
  const byNode = useMemo(() => {
    const m = new Map<string, string[]>();
    for (const i of issues) if (i.node !== null) m.set(i.node, [...new Set([...(m.get(i.node) ?? []), i.key])]);
    return m;
  }, [issues]);
  const general = useMemo(() => [...new Set(issues.filter((i) => i.node === null || !def.nodes.some((n) => n.id === i.node)).map((i) => i.key))], [issues, def]);

  const nodes: StepNode[] = useMemo(
    () =>
      def.nodes.map((n, i) => ({
        id: n.id,
        type: "step",
        position: positionOf(n, i),
        data: { type: n.type, summary: nodeSummary(n), outputs: outputsFor(n), issues: byNode.get(n.id) ?? [] },
        selected: selected.includes(n.id),
        deletable: n.type !== "start",
        measured: measured[n.id],
      })),
    [def, byNode, selected, measured],
  );
  const edges: Edge[] = useMemo(
    () =>
      def.edges.map((e) => ({
        id: e.id,
        source: e.source,
        sourceHandle: e.output,
        target: e.target,
        selected: selectedEdges.includes(e.id),
        // "next" is the only way out of its step: the handle says it already.
        label: e.output === "next" ? undefined : t(`outputs.${e.output}`, { defaultValue: e.output }),
      })),
    [def, selectedEdges, t],
  );

  const onNodesChange = useCallback(
    (changes: NodeChange<StepNode>[]) => {
      const kept = changes.filter((c) => c.type !== "remove");
      if (!kept.length) return;
      const next = applyNodeChanges(kept, nodes);
      if (kept.some((c) => c.type === "dimensions")) setMeasured(Object.fromEntries(next.map((n) => [n.id, n.measured ?? {}])));
      if (kept.some((c) => c.type === "select")) setSelected(next.filter((n) => n.selected).map((n) => n.id));
      if (kept.some((c) => c.type === "position" && c.position)) {
        const at = new Map(next.map((n) => [n.id, n.position]));
        const moved = (n: DraftNodeLike) => (at.has(n.id) ? { ...n, position: { x: Math.round(at.get(n.id)!.x), y: Math.round(at.get(n.id)!.y) } } : n);
        setHist((h) => ({ ...h, present: { ...h.present, nodes: h.present.nodes.map(moved) } }));
      }
    },
    [nodes],
  );
  const onEdgesChange = useCallback((changes: EdgeChange[]) => {
    const sel = changes.filter((c) => c.type === "select");
    if (!sel.length) return;
    setSelectedEdges((s) => {
      const set = new Set(s);
      for (const c of sel) if (c.type === "select") c.selected ? set.add(c.id) : set.delete(c.id);
      return [...set];
    });
  }, []);

  /** Connects `source`'s `output` to `target` (an output leads to one step: the old edge goes), or disconnects it (target null). */
  const connect = useCallback(
    (source: string, output: string, target: string | null) => {
      const d = defRef.current;
      const rest = d.edges.filter((e) => !(e.source === source && e.output === output));
      commit({ ...d, edges: target ? [...rest, { id: freeEdgeId(d.edges), source, output, target }] : rest });
    },
    [commit],
  );
  const onConnect = useCallback((c: Connection) => c.sourceHandle && connect(c.source, c.sourceHandle, c.target), [connect]);

  const remove = useCallback(
    (nodeIds: string[], edgeIds: string[]) => {
      const d = defRef.current;
      const gone = new Set(nodeIds.filter((id) => d.nodes.find((n) => n.id === id)?.type !== "start"));
      const edgeGone = new Set(edgeIds);
      if (!gone.size && !edgeGone.size) return;
      commit({ nodes: d.nodes.filter((n) => !gone.has(n.id)), edges: d.edges.filter((e) => !edgeGone.has(e.id) && !gone.has(e.source) && !gone.has(e.target)) });
      setSelected((s) => s.filter((id) => !gone.has(id)));
      setSelectedEdges([]);
    },
    [commit],
  );

  const add = useCallback(
    (type: NodeType) => {
      const d = defRef.current;
      const id = freeId(new Set(d.nodes.map((n) => n.id)), type);
      const anchor = d.nodes.find((n) => n.id === selected[0]);
      const lowest = Math.max(0, ...d.nodes.map((n, i) => positionOf(n, i).y));
      const position = anchor ? { x: positionOf(anchor, 0).x + 40, y: positionOf(anchor, 0).y + 140 } : { x: 0, y: lowest + 140 };
      commit({ ...d, nodes: [...d.nodes, { id, type, position, data: DEFAULT_DATA[type]() }] });
      setSelected([id]);
      setSelectedEdges([]);
    },
    [commit, selected],
  );

  const copy = useCallback(() => {
    const d = defRef.current;
    const ids = new Set(selected.filter((id) => d.nodes.find((n) => n.id === id)?.type !== "start"));
    if (!ids.size) return;
    clipboard.current = { nodes: d.nodes.filter((n) => ids.has(n.id)), edges: d.edges.filter((e) => ids.has(e.source) && ids.has(e.target)) };
  }, [selected]);
  const paste = useCallback(() => {
    const c = clipboard.current;
    if (!c) return;
    const d = defRef.current;
    const taken = new Set(d.nodes.map((n) => n.id));
    const rename = new Map<string, string>();
    for (const n of c.nodes) {
      const id = freeId(taken, n.type);
      taken.add(id);
      rename.set(n.id, id);
    }
    const nodes = c.nodes.map((n, i) => {
      const p = positionOf(n, i);
      return { ...n, id: rename.get(n.id)!, position: { x: p.x + 40, y: p.y + 40 }, data: structuredClone(n.data ?? {}) };
    });
    const edges = [...d.edges];
    for (const e of c.edges) edges.push({ id: freeEdgeId(edges), source: rename.get(e.source)!, output: e.output, target: rename.get(e.target)! });
    commit({ nodes: [...d.nodes, ...nodes], edges });
    setSelected(nodes.map((n) => n.id));
    // Pasting again places the next copy further on.
    clipboard.current = { nodes: nodes, edges: c.edges.map((e) => ({ ...e, source: rename.get(e.source)!, target: rename.get(e.target)! })) };
  }, [commit]);

  // Ctrl+Z / Ctrl+Shift+Z (or Ctrl+Y), Ctrl+C / Ctrl+V; a field's own shortcuts stay its own.
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      const el = e.target as HTMLElement | null;
      if (el && (el.isContentEditable || ["INPUT", "TEXTAREA", "SELECT"].includes(el.tagName))) return;
      if (!(e.ctrlKey || e.metaKey)) return;
      const k = e.key.toLowerCase();
      if (k === "z" && !e.shiftKey) undo();
      else if ((k === "z" && e.shiftKey) || k === "y") redo();
      else if (k === "c") copy();
      else if (k === "v") paste();
      else return;
      e.preventDefault();
    };
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, [undo, redo, copy, paste]);

  const current = def.nodes.find((n) => n.id === selected[0]) ?? null;
  const setData = useCallback(
    (id: string, data: unknown, mergeKey: string | null) => {
      const d = defRef.current;
      commit({ ...d, nodes: d.nodes.map((n) => (n.id === id ? { ...n, data } : n)) }, mergeKey);
    },
    [commit],
  );

  const formErrors = showAnswer ? (answer?.error?.[""] ?? undefined) : undefined;
  return (
    <div className="space-y-3" data-testid="flow-canvas">
      <Form method="post" id="flow-save-form" className="flex flex-wrap items-center gap-2" data-testid="flow-save-form">
        <CsrfInput />
        <input type="hidden" name="draft" value={JSON.stringify(def)} />
        <Button type="submit" name="intent" value="save" disabled={busy}>
          {t("builder.save")}
        </Button>
        <Button type="submit" name="intent" value="publish" variant="outline" disabled={busy}>
          {t("builder.publish")}
        </Button>
        <span className="mx-1 h-6 w-px bg-border" aria-hidden />
        <Button type="button" size="sm" variant="ghost" onClick={undo} disabled={!past.length} aria-keyshortcuts="Control+Z">
          {t("builder.undo")}
        </Button>
        <Button type="button" size="sm" variant="ghost" onClick={redo} disabled={!future.length} aria-keyshortcuts="Control+Shift+Z">
          {t("builder.redo")}
        </Button>
        <Button type="button" size="sm" variant="ghost" onClick={copy} disabled={!selected.length} aria-keyshortcuts="Control+C">
          {t("builder.copy")}
        </Button>
        <Button type="button" size="sm" variant="ghost" onClick={paste} aria-keyshortcuts="Control+V">
          {t("builder.paste")}
        </Button>
        <Button
          type="button"
          size="sm"
          variant="ghost"
          onClick={() => remove(selected, selectedEdges)}
          disabled={!selected.length && !selectedEdges.length}
          aria-keyshortcuts="Delete"
        >
          {t("builder.delete")}
        </Button>
        <span className="text-sm text-muted-foreground" data-testid="flow-check" aria-live="polite">
          {checked.ok ? t("builder.ready") : t("builder.issues", { count: checked.issues.length })}
        </span>
      </Form>
      <FormErrors errors={formErrors} />
      {general.length ? (
        <ul className="text-sm text-destructive" data-testid="flow-general-issues">
          {general.map((k) => (
            <li key={k}>{text(k)}</li>
          ))}
        </ul>
      ) : null}
      <div className="flex flex-wrap gap-1" role="toolbar" aria-label={t("builder.palette")}>
        {NODE_TYPES.map((type) => (
          <Button key={type} type="button" size="sm" variant="outline" onClick={() => add(type)}>
            {t("builder.add", { type: t(`nodes.${type}`) })}
          </Button>
        ))}
      </div>
      <div className="grid grid-cols-1 gap-3 lg:grid-cols-[minmax(0,1fr)_20rem]">
        <div className="h-[70vh] min-h-96 rounded-md border bg-muted/30">
          <ReactFlow
            nodes={nodes}
            edges={edges}
            nodeTypes={NODE_VIEWS}
            onNodesChange={onNodesChange}
            onEdgesChange={onEdgesChange}
            onConnect={onConnect}
            onDelete={({ nodes: n, edges: e }) =>
              remove(
                n.map((x) => x.id),
                e.map((x) => x.id),
              )
            }
            onNodeDragStart={() => {
              dragFrom.current = defRef.current;
            }}
            onNodeDragStop={() => {
              const from = dragFrom.current;
              dragFrom.current = null;
              if (from && JSON.stringify(from.nodes) !== JSON.stringify(defRef.current.nodes)) {
                merge.current = null;
                setHist((h) => ({ past: [...h.past.slice(-99), from], present: h.present, future: [] }));
              }
            }}
            fitView
            fitViewOptions={{ maxZoom: 1 }}
            minZoom={0.2}
            deleteKeyCode={["Delete", "Backspace"]}
            proOptions={{ hideAttribution: true }}
          >
            <Background />
            <Controls />
            <MiniMap pannable zoomable />
          </ReactFlow>
        </div>
        <aside className="space-y-3 rounded-md border p-3" aria-label={t("panel.title")} data-testid="flow-panel">
          {/* Picking a step without the pointer (and reaching one scrolled off the canvas). */}
          <div className="grid gap-1">
            <label htmlFor="flow-pick" className="text-xs font-medium">
              {t("panel.pick")}
            </label>
            <NativeSelect
              id="flow-pick"
              value={current?.id ?? ""}
              onChange={(e) => {
                setSelected(e.target.value ? [e.target.value] : []);
                setSelectedEdges([]);
              }}
            >
              <NativeSelectOption value="">{t("panel.none")}</NativeSelectOption>
              {def.nodes.map((n) => (
                <NativeSelectOption key={n.id} value={n.id}>
                  {`${n.id} (${t(`nodes.${n.type}`, { defaultValue: n.type })})`}
                </NativeSelectOption>
              ))}
            </NativeSelect>
          </div>
          {current ? (
            <NodePanel
              key={current.id}
              node={current}
              nodes={def.nodes}
              edges={def.edges}
              outputs={outputsFor(current)}
              issues={issues.filter((i) => i.node === current.id)}
              onData={setData}
              onConnect={connect}
              departments={departments}
            />
          ) : (
            <p className="text-sm text-muted-foreground">{t("panel.empty")}</p>
          )}
        </aside>
      </div>
    </div>
  );
}

export default function FlowCanvas(props: Props) {
  return (
    <ReactFlowProvider>
      <Canvas {...props} />
    </ReactFlowProvider>
  );
}
