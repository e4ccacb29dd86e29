// A job's lineage on its details page: the jobs its inputs came from and the jobs that used its outputs, drawn as boxes
// and arrows (each box opens its job), described in words for screen readers, and the same links as a list.
import { useQuery } from "@tanstack/react-query";
import { capabilityNames, type Job, type JobLineage } from "@tracemill/contracts";
import type { MouseEvent } from "react";
import { useId } from "react";
import { Link, useNavigate } from "react-router";
import { api } from "../api/client.js";
import { capabilityGlyphs, statusLabel } from "../icons/capability-icons.js";
import { SUSPECT_LABEL } from "./job-outcome.js";
import { BOX, layoutLineage, type PlacedEdge, type PlacedNode } from "./lineage-layout.js";

const detailsPath = (id: string) => `/ui/details?id=${encodeURIComponent(id)}`;

/** At most `length` characters, an ellipsis standing for the rest (the whole text is in the box's tooltip). */
const clip = (text: string, length: number) => (text.length > length ? `${text.slice(0, length - 1)}…` : text);

const outcomeOf = (node: PlacedNode) => (node.warning ? SUSPECT_LABEL : statusLabel(node.status));
const named = (node: PlacedNode) => `${capabilityNames[node.capability]} “${node.title}”`;

/** What an arrow reads: its outputs, the merge's provenance record last (the server brings it in by itself). */
const outputsOf = (edge: PlacedEdge) =>
  [...edge.reads]
    .sort((a, b) => Number(a.role === "provenance") - Number(b.role === "provenance"))
    .map((read) => read.output);

/** The picture in words: each arrow as "<job> gave <outputs> to <job>". */
export function describeLineage(current: PlacedNode, edges: PlacedEdge[]): string {
  const steps = edges.map((edge) => `${named(edge.from)} gave ${outputsOf(edge).join(", ")} to ${named(edge.to)}`);
  return `Lineage of “${current.title}”: ${steps.join("; ")}.`;
}

function Arrow({ edge, marker }: { edge: PlacedEdge; marker: string }) {
  const x1 = edge.from.x + BOX.width;
  const y1 = edge.from.y + BOX.height / 2;
  const x2 = edge.to.x;
  const y2 = edge.to.y + BOX.height / 2;
  const middle = (x1 + x2) / 2;
  const outputs = outputsOf(edge);
  const label = `${clip(outputs[0], 14)}${outputs.length > 1 ? ` +${outputs.length - 1}` : ""}`;
  return (
    <g className="lineage-edge">
      <title>{outputs.join(", ")}</title>
      <path d={`M ${x1} ${y1} C ${middle} ${y1}, ${middle} ${y2}, ${x2 - 2} ${y2}`} markerEnd={`url(#${marker})`} />
      <text x={middle} y={(y1 + y2) / 2 - 6} textAnchor="middle">
        {label}
      </text>
    </g>
  );
}

function Box({ node, current }: { node: PlacedNode; current: boolean }) {
  const navigate = useNavigate();
  const look = `lineage-node outcome-${node.warning ? "warning" : node.status}${current ? " current" : ""}`;
  const content = (
    <>
      <title>{`${named(node)} · ${outcomeOf(node)}${node.isOwner ? "" : " · another user's"}`}</title>
      <rect x={node.x} y={node.y} width={BOX.width} height={BOX.height} rx={6} />
      <circle className="lineage-outcome" cx={node.x + BOX.width - 10} cy={node.y + 10} r={4} />
      <g className="lineage-glyph" transform={`translate(${node.x + 8} ${node.y + 7}) scale(0.5)`}>
        {capabilityGlyphs[node.capability]}
      </g>
      <text className="lineage-capability" x={node.x + 28} y={node.y + 19}>
        {clip(capabilityNames[node.capability], 22)}
      </text>
      <text className="lineage-title" x={node.x + 8} y={node.y + 40}>
        {clip(node.title, 21)}
      </text>
    </>
  );
  if (current) return <g className={look}>{content}</g>;
  // The picture is an image to assistive technology; its links are reached through the list below it.
  const open = (event: MouseEvent) => {
    if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    navigate(detailsPath(node.id));
  };
  return (
    <a href={detailsPath(node.id)} className={look} tabIndex={-1} onClick={open} data-job={node.id}>
      {content}
    </a>
  );
}

export function LineageGraph({ lineage, currentId }: { lineage: JobLineage; currentId: string }) {
  const marker = `lineage-arrow-${useId().replace(/[^\w-]/g, "")}`;
  const layout = layoutLineage(lineage);
  const current = layout.nodes.find((node) => node.id === currentId);
  if (!current || layout.nodes.length < 2) return null;
  return (
    <figure className="lineage">
      <div className="lineage-scroll">
        <svg
          className="lineage-picture"
          width={layout.width}
          height={layout.height}
          viewBox={`0 0 ${layout.width} ${layout.height}`}
          role="img"
          aria-label={describeLineage(current, layout.edges)}
        >
          <defs>
            <marker id={marker} viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto">
              <path d="M 0 0 L 10 5 L 0 10 z" className="lineage-arrowhead" />
            </marker>
          </defs>
          {layout.edges.map((edge) => (
            <Arrow key={`${edge.from.id}-${edge.to.id}`} edge={edge} marker={marker} />
          ))}
          {layout.nodes.map((node) => (
            <Box key={node.id} node={node} current={node.id === currentId} />
          ))}
        </svg>
      </div>
      <details className="lineage-list">
        <summary className="lineage-list-toggle">The lineage as a list</summary>
        <ol>
          {layout.nodes.map((node) => {
            const reads = layout.edges.filter((edge) => edge.to.id === node.id);
            return (
              <li key={node.id}>
                {node.id === currentId ? (
                  <strong aria-current="page">{node.title} (this job)</strong>
                ) : (
                  <Link to={detailsPath(node.id)}>{node.title}</Link>
                )}
                {` — ${capabilityNames[node.capability]}, ${outcomeOf(node).toLowerCase()}`}
                {reads.map((edge) => `; read ${outputsOf(edge).join(", ")} of “${edge.from.title}”`).join("")}
              </li>
            );
          })}
        </ol>
      </details>
    </figure>
  );
}

/** The section on a job's details page; nothing when the job neither came from nor led to a job the viewer may read. */
export function JobLineageSection({ job }: { job: Job }) {
  // Asked again as the job moves on: jobs that used its outputs appear once it has succeeded.
  const lineage = useQuery({ queryKey: ["lineage", job.id, job.status], queryFn: () => api.lineage(job.id) });
  if (!lineage.data || lineage.data.nodes.length < 2) return null;
  return (
    <section aria-labelledby="lineage-heading">
      <h2 id="lineage-heading">Lineage</h2>
      <LineageGraph lineage={lineage.data} currentId={job.id} />
    </section>
  );
}
