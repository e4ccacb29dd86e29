// The timeline a merge or sanitize job's summary carries (docs/formats.md, "Timelines"): background against injected
// attack packets with the insertion point, or clean against attack packets with the alerts.
import type { Job } from "@tracemill/contracts";
import { TimelineChart, type TimelineData } from "../charts/timeline-chart.js";

function timelineOf(summary: Record<string, unknown> | null): TimelineData | null {
  const timeline = summary?.timeline as TimelineData | null | undefined;
  return timeline && typeof timeline.start === "number" && typeof timeline.binSeconds === "number" ? timeline : null;
}

export function JobTimeline({ job }: { job: Job }) {
  const timeline = timelineOf(job.summary);
  if (!timeline) return null;
  if (job.capability === "merge") {
    const placement = job.summary?.placement as { firstAttackPacketAt?: string | null } | undefined;
    const insertion = placement?.firstAttackPacketAt ? Date.parse(placement.firstAttackPacketAt) / 1000 : Number.NaN;
    return (
      <TimelineChart
        title="Packets over time"
        timeline={timeline}
        stacked={["background", "attacks"]}
        marks={Number.isFinite(insertion) ? [{ label: "attacks inserted", at: insertion }] : []}
      />
    );
  }
  if (job.capability === "sanitize") {
    return (
      <>
        <TimelineChart title="Packets over time" timeline={timeline} stacked={["clean", "attacks"]} />
        <TimelineChart title="Alerts over time" timeline={timeline} stacked={["alerts"]} />
      </>
    );
  }
  return null;
}
