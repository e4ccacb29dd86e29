// A job's figures as the table shows them: sessions, the bytes of its outputs, when it was made, how long it ran.
import type { Job } from "@tracemill/contracts";
import { formatBytes } from "./format-bytes.js";

// One formatter for every count: toLocaleString with a locale builds a new one per call, which took most of the
// table's drawing time in Chromium.
const counts = new Intl.NumberFormat("en-US");

/** Thousands separated with commas whatever the browser's language, as the rest of the app writes counts. */
export const formatCount = (n: number) => counts.format(n);

/** The outputs together, as the server sorts "size"; "—" before a job has any. */
export function outputSize(job: Job): string {
  return job.outputs.length === 0 ? "—" : formatBytes(job.outputs.reduce((sum, o) => sum + o.size, 0));
}

/** "2026-01-01 10:00" in the browser's time zone: short, and sorting by eye reads the same as sorting by date. */
export function formatCreated(iso: string): string {
  const at = new Date(iso);
  const two = (n: number) => String(n).padStart(2, "0");
  return `${at.getFullYear()}-${two(at.getMonth() + 1)}-${two(at.getDate())} ${two(at.getHours())}:${two(at.getMinutes())}`;
}

/** "850 ms", "42 s", "3 min 5 s", "2 h 4 min"; "—" until the job has ended (or when it never started). */
export function formatRuntime(job: Job): string {
  if (job.startedAt === null || job.finishedAt === null) return "—";
  const ms = Math.max(0, Date.parse(job.finishedAt) - Date.parse(job.startedAt));
  if (ms < 1000) return `${ms} ms`;
  const seconds = Math.round(ms / 1000);
  if (seconds < 60) return `${seconds} s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes} min ${seconds % 60} s`;
  return `${Math.floor(minutes / 60)} h ${minutes % 60} min`;
}
