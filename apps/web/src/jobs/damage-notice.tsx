// A job whose capture was damaged part-way succeeded on the packets before the damage: said where it cannot be missed.
import type { Job } from "@tracemill/contracts";

/** The damage a job's run summary reports, or null for a complete run (or none yet). */
export function damageOf(job: Job): { message: string; offset: number } | null {
  const summary = job.summary as { complete?: unknown; damage?: { message?: unknown; offset?: unknown } } | null;
  if (summary?.complete !== false) return null;
  return {
    message: typeof summary.damage?.message === "string" ? summary.damage.message : "the input is damaged",
    offset: typeof summary.damage?.offset === "number" ? summary.damage.offset : 0,
  };
}

export function DamageNotice({ job }: { job: Job }) {
  const damage = damageOf(job);
  if (!damage) return null;
  return (
    <p className="job-warning" role="status">
      Incomplete input: {damage.message}. The outputs hold what was read before byte {damage.offset}.
    </p>
  );
}
