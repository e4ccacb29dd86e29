// Where the lineage graph draws its boxes and arrows: a column per step of the chain (a job one column right of the
// furthest job it read from), the jobs of a column one under the other, centred on the tallest column.
import type { JobLineage, LineageNode } from "@tracemill/contracts";

export const BOX = { width: 184, height: 52 };
const GAP = { x: 88, y: 16 };
const PAD = 4;

export interface PlacedNode extends LineageNode {
  column: number;
  x: number;
  y: number;
}

/** One arrow per pair of jobs: the outputs the later one read of the earlier one, with the roles it read them as. */
export interface PlacedEdge {
  from: PlacedNode;
  to: PlacedNode;
  reads: { output: string; role: string }[];
}

export interface LineageLayout {
  nodes: PlacedNode[];
  edges: PlacedEdge[];
  width: number;
  height: number;
}

/** Each job's column: the longest chain of reads that leads to it (bounded, so even a cycle ends). */
function columns(lineage: JobLineage): Map<string, number> {
  const column = new Map(lineage.nodes.map((node) => [node.id, 0]));
  for (let round = 0; round < lineage.nodes.length; round++) {
    let moved = false;
    for (const edge of lineage.edges) {
      const next = (column.get(edge.from) ?? 0) + 1;
      if (edge.from !== edge.to && next > (column.get(edge.to) ?? 0) && next < lineage.nodes.length) {
        column.set(edge.to, next);
        moved = true;
      }
    }
    if (!moved) break;
  }
  return column;
}

export function layoutLineage(lineage: JobLineage): LineageLayout {
  const column = columns(lineage);
  const byColumn = new Map<number, LineageNode[]>();
  for (const node of lineage.nodes) {
    const c = column.get(node.id) ?? 0;
    byColumn.set(c, [...(byColumn.get(c) ?? []), node]);
  }
  const tallest = Math.max(...[...byColumn.values()].map((list) => list.length));
  const rowHeight = BOX.height + GAP.y;
  const placed = new Map<string, PlacedNode>();
  for (const [c, list] of [...byColumn].sort(([a], [b]) => a - b)) {
    const top = PAD + ((tallest - list.length) * rowHeight) / 2;
    list.forEach((node, row) => {
      placed.set(node.id, { ...node, column: c, x: PAD + c * (BOX.width + GAP.x), y: top + row * rowHeight });
    });
  }
  const edges = new Map<string, PlacedEdge>();
  for (const edge of lineage.edges) {
    const from = placed.get(edge.from);
    const to = placed.get(edge.to);
    if (!from || !to) continue;
    const key = `${edge.from}\n${edge.to}`;
    const known = edges.get(key) ?? { from, to, reads: [] };
    known.reads.push({ output: edge.output, role: edge.role });
    edges.set(key, known);
  }
  const columnCount = Math.max(...[...placed.values()].map((node) => node.column)) + 1;
  return {
    nodes: [...placed.values()].sort((a, b) => a.column - b.column || a.y - b.y),
    // Left to right, as the chain is read (and told in words).
    edges: [...edges.values()].sort(
      (a, b) => a.from.column - b.from.column || a.from.y - b.from.y || a.to.column - b.to.column || a.to.y - b.to.y,
    ),
    width: 2 * PAD + columnCount * BOX.width + (columnCount - 1) * GAP.x,
    height: 2 * PAD + tallest * rowHeight - GAP.y,
  };
}
