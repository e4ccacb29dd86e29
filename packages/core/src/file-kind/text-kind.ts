// The text kinds: Suricata EVE JSON lines, a rules file, a classification.config. Judged line by line with anchored
// patterns whose parts cannot overlap, so a start of blank lines or spaces costs linear time, not a regex stall.
import { decodeUtf8 } from "../capture/utf8.js";

export type TextKind = "eve-json" | "rules" | "classification";

const EVE_START = /^\{\s*"(timestamp|event_type|flow_id)"/;
const RULE_HEADER =
  /^[ \t]*(?:#[ \t]*)?(?:alert|drop|pass|reject|rejectsrc|rejectdst|rejectboth)[ \t]+\S+[ \t]+\S+[ \t]+\S+[ \t]+(?:->|<>)/;
const CLASSIFICATION_LINE = /^\s*config\s+classification\s*:/;

/** The text kind of a file's start, or undefined. `complete`: the bytes are the whole file (no line is cut). */
export function textKind(bytes: Uint8Array, complete: boolean): TextKind | undefined {
  if (bytes.includes(0)) return undefined;
  const lines = decodeUtf8(bytes).split(/\r?\n/);
  // Without a newline after it, the last line may be cut by the end of the bytes looked at.
  const cut = complete ? "" : (lines.pop() ?? "");
  const filled = lines.filter((line) => line.trim() !== "");
  const first = (filled[0] ?? cut).trim();
  if (first.startsWith("{")) return isEveLine(filled.length > 0 ? first : "", first);
  if (filled.some((line) => RULE_HEADER.test(line)) || RULE_HEADER.test(cut)) return "rules";
  const settings = filled.filter((line) => !line.trim().startsWith("#"));
  if (settings.length > 0 && settings.every((line) => CLASSIFICATION_LINE.test(line))) return "classification";
  return undefined;
}

/** An EVE event names its type or time; a first line cut by the end of the bytes is judged by how it starts. */
function isEveLine(whole: string, start: string): TextKind | undefined {
  try {
    // The line starts with "{", so what parses is an object.
    const event = JSON.parse(whole) as object;
    return "event_type" in event || "timestamp" in event ? "eve-json" : undefined;
  } catch {
    return EVE_START.test(start) ? "eve-json" : undefined;
  }
}
