// An attack schedule as the wizard edits it: one row of text fields per window, turned into the spec's windows
// (labels.schedule) and back, or read whole from pasted YAML or JSON.
import { type LabelSchedule, labelSchedule, type ScheduleWindow } from "@tracemill/contracts";

export interface WindowRow {
  class: string;
  start: string;
  end: string;
  /** Addresses or CIDRs, separated by commas or spaces. */
  attackers: string;
  victims: string;
  /** Ports or ranges ("21, 8000-8100"); empty for any port. */
  ports: string;
  /** What the row has no field for (id, protocol, attempted, a window's own time zone), kept as pasted. */
  extra: Partial<ScheduleWindow>;
}

export const emptyRow = (): WindowRow => ({
  class: "",
  start: "",
  end: "",
  attackers: "",
  victims: "",
  ports: "",
  extra: {},
});

const words = (text: string) => text.split(/[\s,]+/).filter((word) => word !== "");

export function rowOf(window: ScheduleWindow): WindowRow {
  const { class: className, start, end, attackers, victims, ports, ...extra } = window;
  return {
    class: className,
    start,
    end,
    attackers: attackers.join(", "),
    victims: victims.join(", "),
    ports: (ports ?? []).join(", "),
    extra,
  };
}

export function windowOf(row: WindowRow): ScheduleWindow {
  const ports = words(row.ports).map((port) => (/^\d+$/.test(port) ? Number(port) : port));
  return {
    ...row.extra,
    class: row.class.trim(),
    start: row.start.trim(),
    end: row.end.trim(),
    attackers: words(row.attackers),
    victims: words(row.victims),
    ...(ports.length > 0 && { ports }),
  };
}

/**
 * A schedule read from pasted text: `labels.schedule` itself (timezone and windows), or a whole spec or `labels`
 * holding one. YAML reads JSON too. A string says what is wrong, with the line or the field.
 */
export async function scheduleFromText(text: string): Promise<LabelSchedule | string> {
  const { parse } = await import("yaml");
  let value: unknown;
  try {
    value = parse(text, { maxAliasCount: 100 });
  } catch (error) {
    return `The text is not YAML or JSON: ${(error as Error).message.split("\n")[0]}`;
  }
  const found = scheduleIn(value);
  if (found === undefined) return "No schedule found: paste an object with timezone and windows (labels.schedule).";
  const parsed = labelSchedule.safeParse(found);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  return `labels.schedule.${issue.path.join(".")}: ${issue.message}`;
}

function scheduleIn(value: unknown): unknown {
  const record = (v: unknown) => (v !== null && typeof v === "object" && !Array.isArray(v) ? v : undefined);
  const top = record(value) as Record<string, unknown> | undefined;
  if (top === undefined) return undefined;
  if ("windows" in top || "timezone" in top) return top;
  const labels = record(top.labels) as Record<string, unknown> | undefined;
  return labels?.schedule ?? top.schedule;
}

/** "2017-07-04 09:20", with seconds, a fraction and an offset optional (the engine's reading, core/dataset). */
const WRITTEN = /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,6})?)?([Zz]|[+-]\d{2}:\d{2})?$/;
const OFFSET = /^[+-]\d{2}:\d{2}$/;

/** Why a written time is not one the build reads, or undefined. */
export function timeProblem(text: string): string | undefined {
  const m = WRITTEN.exec(text.trim());
  if (m === null) return 'A date and time such as "2017-07-04 09:20" (seconds and an offset optional)';
  const [month, day, hour, minute, second] = [m[2], m[3], m[4], m[5], m[6] ?? "0"].map(Number);
  if (month < 1 || month > 12 || day < 1 || day > 31 || hour > 23 || minute > 59 || Number(second) > 59) {
    return "The date or the time of day is out of range";
  }
  return undefined;
}

/** Whether the end comes after the start, when both are written without an offset (wall times of one zone). */
export function endsBeforeStart(start: string, end: string): boolean {
  const a = WRITTEN.exec(start.trim());
  const b = WRITTEN.exec(end.trim());
  if (a === null || b === null || a[7] !== undefined || b[7] !== undefined) return false;
  const key = (m: RegExpExecArray) => [m[1], m[2], m[3], m[4], m[5], m[6] ?? "00"].join("");
  return key(b) < key(a);
}

/** Why a time zone is not an IANA name this browser knows nor a fixed offset, or undefined. */
export function timeZoneProblem(zone: string): string | undefined {
  if (OFFSET.test(zone)) return undefined;
  try {
    new Intl.DateTimeFormat("en-US", { timeZone: zone });
    return undefined;
  } catch {
    return 'An IANA time zone such as "America/Halifax", or an offset such as "-03:00"';
  }
}

/** The browser's own time zone: the picker's first choice. */
export function browserTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || "UTC";
}

const IPV4 = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})(\/\d{1,2})?$/;
const IPV6 = /^[0-9a-f:.]*:[0-9a-f:.]*(\/\d{1,3})?$/i;

/** Why a list of addresses is not one (empty, or a word that is no IPv4/IPv6 address or CIDR), or undefined. */
export function addressesProblem(text: string): string | undefined {
  const list = words(text);
  if (list.length === 0) return "One or more addresses or CIDRs (10.0.0.5, 192.168.10.0/24, 2001:db8::/32)";
  const bad = list.find((word) => {
    const v4 = IPV4.exec(word);
    if (v4) return v4.slice(1, 5).some((part) => Number(part) > 255) || Number((v4[5] ?? "/0").slice(1)) > 32;
    return !IPV6.test(word);
  });
  return bad === undefined ? undefined : `"${bad}" is not an IPv4 or IPv6 address or CIDR`;
}

/** Why a list of ports is not one, or undefined (empty: any port). */
export function portsProblem(text: string): string | undefined {
  const bad = words(text).find((word) => {
    const m = /^(\d{1,5})(?:-(\d{1,5}))?$/.exec(word);
    return m === null || Number(m[1]) > 65535 || Number(m[2] ?? m[1]) > 65535 || Number(m[2] ?? m[1]) < Number(m[1]);
  });
  return bad === undefined ? undefined : `"${bad}" is not a port from 0 to 65535 or a range such as 8000-8100`;
}
