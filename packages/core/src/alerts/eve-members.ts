// Reads the members of a parsed EVE event with the JSON types Suricata writes them in. A member of another type, or a
// value that does not read, throws EveMemberError naming it: the caller adds the file and line, and a bad line is
// reported by name instead of flowing on as the wrong kind of value.

export class EveMemberError extends Error {
  constructor(
    /** The member's path, as "src_ip" or "alert.severity". */
    readonly member: string,
    message: string,
  ) {
    super(message);
  }
}

export type EveObject = Record<string, unknown>;

export function isEveObject(value: unknown): value is EveObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** `"src_ip" is 7, not an IP address`: what was found, briefly (a value may be megabytes long), and what was wanted. */
export function memberError(member: string, value: unknown, wanted: string): EveMemberError {
  return new EveMemberError(member, `"${member}" is ${describe(value)}, not ${wanted}`);
}

function describe(value: unknown): string {
  if (typeof value === "string")
    return value.length <= 40 ? JSON.stringify(value) : `a text of ${value.length} characters`;
  if (Array.isArray(value)) return "an array";
  if (value === null) return "null";
  if (typeof value === "object") return "an object";
  const text = String(value);
  return text.length <= 40 ? text : `a ${typeof value}`;
}

/** The member `key` of `object` (named `path` in errors) when it is a string; undefined when absent. */
export function stringMember(object: EveObject, key: string, path = key): string | undefined {
  const value = object[key];
  if (value === undefined || typeof value === "string") return value;
  throw memberError(path, value, "a string");
}

/** The member when it is a whole number from 0 to `max`; undefined when absent. */
export function wholeMember(object: EveObject, key: string, max: number, path = key): number | undefined {
  const value = object[key];
  if (value === undefined) return undefined;
  if (typeof value === "number" && Number.isInteger(value) && value >= 0 && value <= max) return value;
  throw memberError(path, value, `a whole number from 0 to ${max}`);
}

/** The member when it is an object; undefined when absent. */
export function objectMember(object: EveObject, key: string, path = key): EveObject | undefined {
  const value = object[key];
  if (value === undefined || isEveObject(value)) return value;
  throw memberError(path, value, "an object");
}

export const MAX_U8 = 0xff;
export const MAX_U16 = 0xffff;
export const MAX_U32 = 0xffffffff;
