// An attack schedule (docs/datasets.md, "Schedules"): time windows in which named attackers attacked named victims,
// as a researcher writes them, checked and compiled into UTC microsecond windows over numeric address sets.
import { TracemillError } from "../errors.js";
import { AddressSet } from "./address-set.js";
import { parseTimeZone, parseWrittenTime, type TimeZone, utcMicros } from "./zoned-time.js";

/** One window as written (the spec loader's shape). */
export interface ScheduleWindowSpec {
  /** Default "w<N>", N its 1-based position. */
  id?: string;
  /** The class of the sessions it labels, e.g. "FTP-Patator". */
  class: string;
  /**
   * "2017-07-04 09:20", "2017-07-04T09:20:00.5", with or without seconds and fraction, in the window's time zone; an
   * explicit offset ("Z", "+00:00") wins over the zone. Both ends are included at the precision written: an end of
   * "10:20" covers the minute 10:20, so the window closes at 10:21:00.
   */
  start: string;
  end: string;
  /** An IANA name ("America/Halifax") or a fixed offset ("-03:00"); default the schedule's. */
  timezone?: string;
  /** Addresses or CIDRs, IPv4 and IPv6. */
  attackers: string[];
  victims: string[];
  /** The victim side's ports, numbers or ranges such as "8000-8100"; any port when absent. */
  ports?: (number | string)[];
  /** Any protocol when absent. */
  protocol?: "tcp" | "udp";
  /** A TCP session whose attacker side sent no transport payload is "<class> - Attempted" (Engelen et al., 2021). */
  attempted?: boolean;
}

export interface ScheduleSpec {
  timezone: string;
  windows: ScheduleWindowSpec[];
}

export interface CompiledWindow {
  id: string;
  /** The window's position in the spec (0-based). */
  index: number;
  className: string;
  /** UTC microseconds since the epoch: the window is [startUs, endUs). */
  startUs: number;
  endUs: number;
  attackers: AddressSet;
  victims: AddressSet;
  /** Inclusive port ranges, two numbers each; null for any port. */
  ports: Int32Array | null;
  /** 6 (TCP), 17 (UDP) or 0 (any). */
  protocol: number;
  attempted: boolean;
}

export interface CompiledSchedule {
  timezone: string;
  /** By start time, then by their order in the spec: "the earliest window" is the lowest index here. */
  windows: readonly CompiledWindow[];
}

export interface CompileOptions {
  /** Where the schedule sits in its spec, for the errors' field names. Default "labels.schedule". */
  field?: string;
}

/**
 * Checks and compiles a schedule. Errors are BAD_OPTION naming the field and why, as
 * "labels.schedule.windows[3].start: …" (with `field` in the context).
 */
export function compileSchedule(spec: ScheduleSpec, options: CompileOptions = {}): CompiledSchedule {
  const field = options.field ?? "labels.schedule";
  if (typeof spec !== "object" || spec === null) throw badOption(field, "must be an object with timezone and windows");
  const zoneText = requireText(spec.timezone, `${field}.timezone`);
  const zone = zoneOf(zoneText, `${field}.timezone`);
  if (!Array.isArray(spec.windows) || spec.windows.length === 0)
    throw badOption(`${field}.windows`, "needs a list of at least one window");
  const ids = new Map<string, number>();
  const windows = spec.windows.map((window, index) => {
    const at = `${field}.windows[${index}]`;
    const compiled = compileWindow(window, index, at, zone);
    const earlier = ids.get(compiled.id);
    if (earlier !== undefined)
      throw badOption(`${at}.id`, `"${compiled.id}" is already the id of ${field}.windows[${earlier}]`);
    ids.set(compiled.id, index);
    return compiled;
  });
  windows.sort((a, b) => a.startUs - b.startUs || a.index - b.index);
  return { timezone: zoneText, windows };
}

function compileWindow(window: ScheduleWindowSpec, index: number, at: string, scheduleZone: TimeZone): CompiledWindow {
  if (typeof window !== "object" || window === null) throw badOption(at, "a window is an object");
  const id = window.id === undefined ? `w${index + 1}` : requireText(window.id, `${at}.id`);
  const className = requireText(window.class, `${at}.class`);
  const zone =
    window.timezone === undefined
      ? scheduleZone
      : zoneOf(requireText(window.timezone, `${at}.timezone`), `${at}.timezone`);
  const start = timeOf(window.start, `${at}.start`);
  const end = timeOf(window.end, `${at}.end`);
  const startUs = utcMicros(start, zone);
  const endUs = utcMicros(end, zone) + end.unitUs;
  if (endUs <= startUs) throw badOption(`${at}.end`, `"${window.end}" is before the start "${window.start}"`);
  if (window.protocol !== undefined && window.protocol !== "tcp" && window.protocol !== "udp")
    throw badOption(`${at}.protocol`, `is "tcp" or "udp", not ${JSON.stringify(window.protocol)}`);
  if (window.attempted !== undefined && typeof window.attempted !== "boolean")
    throw badOption(`${at}.attempted`, `is true or false, not ${JSON.stringify(window.attempted)}`);
  return {
    id,
    index,
    className,
    startUs,
    endUs,
    attackers: AddressSet.parse(window.attackers, `${at}.attackers`),
    victims: AddressSet.parse(window.victims, `${at}.victims`),
    ports: window.ports === undefined ? null : portRanges(window.ports, `${at}.ports`),
    protocol: window.protocol === "tcp" ? 6 : window.protocol === "udp" ? 17 : 0,
    attempted: window.attempted ?? false,
  };
}

/** Whether `port` is in a window's port ranges (null: any port). */
export function portAllowed(ranges: Int32Array | null, port: number): boolean {
  if (ranges === null) return true;
  for (let i = 0; i < ranges.length; i += 2) if (port >= ranges[i] && port <= ranges[i + 1]) return true;
  return false;
}

function portRanges(ports: unknown, field: string): Int32Array {
  if (!Array.isArray(ports) || ports.length === 0) throw badOption(field, "needs a list of at least one port or range");
  const ranges: number[] = [];
  ports.forEach((port: unknown, i) => {
    const at = `${field}[${i}]`;
    const m = typeof port === "string" ? /^(\d{1,5})(?:-(\d{1,5}))?$/.exec(port) : null;
    const low = typeof port === "number" ? port : m !== null ? Number(m[1]) : Number.NaN;
    const high = typeof port === "number" ? port : m !== null ? Number(m[2] ?? m[1]) : Number.NaN;
    if (!(Number.isInteger(low) && Number.isInteger(high) && low >= 0 && high <= 65535))
      throw badOption(at, `${JSON.stringify(port)} is not a port (0 to 65535) or a range such as "8000-8100"`);
    if (low > high) throw badOption(at, `the range "${String(port)}" ends before it starts`);
    ranges.push(low, high);
  });
  return Int32Array.from(ranges);
}

function timeOf(text: unknown, field: string) {
  const time = parseWrittenTime(requireText(text, field));
  if (typeof time === "string") throw badOption(field, time);
  return time;
}

function zoneOf(text: string, field: string): TimeZone {
  const zone = parseTimeZone(text);
  if (typeof zone === "string") throw badOption(field, zone);
  return zone;
}

function requireText(value: unknown, field: string): string {
  if (value === undefined) throw badOption(field, "missing");
  if (typeof value !== "string" || value.trim() === "")
    throw badOption(field, `must be text, not ${JSON.stringify(value)}`);
  return value;
}

function badOption(field: string, why: string): TracemillError {
  return new TracemillError("BAD_OPTION", `${field}: ${why}`, { field });
}
