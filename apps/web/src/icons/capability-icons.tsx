// Capability and job-status icons, drawn in the same stroke style as the file icons.
import { type Capability, capabilityNames, type JobStatus } from "@tracemill/contracts/names";
import type { ReactNode } from "react";

// The names live in the contracts, where the server's list search matches them too.
export { capabilityNames };

/** Each capability's drawing (32 × 32, stroked), shared by its icon and its menu entry. */
export const capabilityGlyphs: Record<Capability, ReactNode> = {
  extract: <path d="M6 8 h8 v8 h-8 z M18 10 h8 M18 14 h8 M6 20 h20 M6 24 h20" />,
  sanitize: <path d="M16 5 l9 4 v7 q0 7 -9 11 q-9 -4 -9 -11 v-7 z M12 16 l3 3 l6 -6" />,
  merge: <path d="M5 8 q9 0 11 8 q2 8 11 8 M5 24 q9 0 11 -8 M22 20 l5 4 l-5 4" />,
  label: <path d="M5 7 h11 l10 10 l-9 9 l-12 -12 z M10 12 h.1" />,
  ipt: <path d="M4 24 h24 M7 24 v-6 M12 24 v-12 M17 24 v-8 M22 24 v-15 M26 24 v-4" />,
  images: <path d="M5 7 h22 v18 h-22 z M5 21 l6 -6 l5 5 l4 -4 l7 7 M20 12 h.1" />,
  dataset: <path d="M6 8 q10 -5 20 0 v16 q-10 5 -20 0 z M6 8 q10 5 20 0 M6 16 q10 5 20 0 M16 11 v17" />,
};

export function CapabilityIcon({ capability, size = 32 }: { capability: Capability; size?: number }) {
  return (
    <svg
      className="icon capability-icon"
      width={size}
      height={size}
      viewBox="0 0 32 32"
      role="img"
      aria-label={capabilityNames[capability]}
      fill="none"
      stroke="currentColor"
      strokeWidth="2"
      strokeLinecap="round"
      strokeLinejoin="round"
    >
      {capabilityGlyphs[capability]}
    </svg>
  );
}

const statusLooks: Record<JobStatus, { color: string; glyph: ReactNode; label: string }> = {
  queued: { color: "#7a7a7a", glyph: <path d="M12 6 v6 l4 3" />, label: "Queued" },
  running: { color: "#2f6fb3", glyph: <path d="M12 4 a8 8 0 1 1 -8 8" />, label: "Running" },
  succeeded: { color: "#2e8b57", glyph: <path d="M7 12 l4 4 l7 -8" />, label: "Succeeded" },
  failed: { color: "#c0392b", glyph: <path d="M8 8 l8 8 M16 8 l-8 8" />, label: "Failed" },
  cancelled: { color: "#b8860b", glyph: <path d="M7 12 h10" />, label: "Cancelled" },
};

export function StatusIcon({ status, size = 24 }: { status: JobStatus; size?: number }) {
  const look = statusLooks[status];
  return (
    <svg
      className={`icon status-icon status-${status}`}
      width={size}
      height={size}
      viewBox="0 0 24 24"
      role="img"
      aria-label={look.label}
      fill="none"
      stroke={look.color}
      strokeWidth="2.4"
      strokeLinecap="round"
    >
      <title>{look.label}</title>
      {status === "running" ? null : <circle cx="12" cy="12" r="10" strokeWidth="1.5" />}
      {look.glyph}
    </svg>
  );
}

/** A finished job whose result is suspect: an amber triangle with an exclamation mark, never the green tick. */
export function WarningStatusIcon({ size = 24, label }: { size?: number; label: string }) {
  return (
    <svg
      className="icon status-icon status-warning"
      width={size}
      height={size}
      viewBox="0 0 24 24"
      role="img"
      aria-label={label}
      fill="none"
      stroke="#b7791f"
      strokeWidth="2.4"
      strokeLinecap="round"
      strokeLinejoin="round"
    >
      <title>{label}</title>
      <path d="M12 3 L22 20 H2 Z" strokeWidth="1.5" />
      <path d="M12 9 v5 M12 17 v0.5" />
    </svg>
  );
}

export function statusLabel(status: JobStatus): string {
  return statusLooks[status].label;
}

/** The code-hosting icon of the About page's contact line: a branching-commits mark of our own. */
export function CodeHostIcon({ size = 20 }: { size?: number }) {
  return (
    <svg
      width={size}
      height={size}
      viewBox="0 0 24 24"
      aria-hidden="true"
      fill="none"
      stroke="currentColor"
      strokeWidth="2"
    >
      <circle cx="6" cy="5" r="2.5" />
      <circle cx="6" cy="19" r="2.5" />
      <circle cx="18" cy="8" r="2.5" />
      <path d="M6 7.5 v9 M18 10.5 q0 5 -10 7" />
    </svg>
  );
}
