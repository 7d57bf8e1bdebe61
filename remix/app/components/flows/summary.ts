/** What a step says at a glance, for the canvas's nodes and the list of steps without JavaScript (no zod here: ADR 052). */
import type { NodeType } from "~api/flows/constants";

export type DraftNodeLike = { id: string; type: NodeType | string; position?: { x: number; y: number }; data?: unknown };
export type DraftEdgeLike = { id: string; source: string; output: string; target: string };
export type DraftLike = { nodes: DraftNodeLike[]; edges: DraftEdgeLike[] };
/** An issue as checkFlow answers it (the API adds its path and message). */
export type IssueLike = { node: string | null; field: string | null; key: string };

const str = (v: unknown) => (typeof v === "string" ? v : "");

export function nodeSummary(node: DraftNodeLike): string {
  const d = (node.data ?? {}) as Record<string, unknown>;
  switch (node.type) {
    case "message":
      return str(d.text) || str(d.media_url);
    case "question":
      return str(d.text);
    case "condition":
      return Array.isArray(d.rules) ? d.rules.map((r) => [str(r?.subject), str(r?.name), str(r?.op), str(r?.value)].filter(Boolean).join(" ")).join(" · ") : "";
    case "delay":
      return typeof d.seconds === "number" ? `${d.seconds} s` : "";
    case "http":
      return `${str(d.method)} ${str(d.url)}`.trim();
    case "action":
      return [str(d.kind), str(d.name), str(d.value)].filter(Boolean).join(" ");
    case "handoff":
    case "end":
      return str(d.message);
    default:
      return "";
  }
}

/** An error's fields from a refused save or publish (`nodes.<id>[.<field>]`, `definition[.<field>]`) as issues. */
export function issuesFromFields(error: Record<string, string[] | null | undefined> | undefined): IssueLike[] {
  const out: IssueLike[] = [];
  for (const [path, keys] of Object.entries(error ?? {})) {
    const m = /^nodes\.([\w-]+)(?:\.(.+))?$/.exec(path);
    const d = /^definition(?:\.(.+))?$/.exec(path);
    if (!m && !d) continue;
    for (const key of keys ?? []) out.push(m ? { node: m[1], field: m[2] ?? null, key } : { node: null, field: d![1] ?? null, key });
  }
  return out;
}
