// What a job shows its users names files as they know them: the engine's messages and summaries name the paths it
// was given (a stored input under the job's work directory, an output under the data directory, a rule file of a
// ruleset), which say nothing to a user and tell them how the server lays out its disk.
import path from "node:path";
import { installRoot } from "../install-root.js";

/**
 * The server's directories no message may name, most specific first: a rule file is then named within the rulesets
 * directory (`et-open/emerging-dos.rules`), anything else of the installation relative to it.
 */
export function serverDirs(dirs: { dataDir: string; storageDir?: string; rulesetsDir: string }): string[] {
  const storage = dirs.storageDir && dirs.storageDir !== dirs.dataDir ? [dirs.storageDir] : [];
  return [dirs.rulesetsDir, path.join(installRoot, "rules"), ...storage, dirs.dataDir, installRoot];
}

/**
 * `text` with each of `paths` replaced by its file name, and paths under `dirs` made relative to them (a directory
 * named alone becomes its own name). Works on JSON text too: a path is matched as JSON writes it inside a string.
 */
export function withoutServerPaths(text: string, paths: readonly string[], dirs: readonly string[]): string {
  const pairs: [string, string][] = paths.map((p) => [p, baseName(p)]);
  for (const dir of dirs) {
    const bare = dir.replace(/\/+$/, "");
    if (bare === "") continue;
    pairs.push([`${bare}/`, ""], [bare, baseName(bare)]);
  }
  // Longer first, so that no path is cut by a shorter one it starts with.
  pairs.sort((a, b) => b[0].length - a[0].length);
  let result = text;
  for (const [from, to] of pairs) {
    if (from === "" || from === "/") continue;
    result = replaceAll(result, from, to);
    const escaped = JSON.stringify(from).slice(1, -1);
    if (escaped !== from) result = replaceAll(result, escaped, JSON.stringify(to).slice(1, -1));
  }
  return result;
}

/** Replaces `from`, unless it is only the start of a longer name (`/srv/data` in `/srv/database`). */
function replaceAll(text: string, from: string, to: string): string {
  if (from.endsWith("/")) return text.split(from).join(to);
  let result = "";
  let start = 0;
  for (let at = text.indexOf(from); at >= 0; at = text.indexOf(from, at + from.length)) {
    const next = text[at + from.length];
    if (next !== undefined && /[\w.-]/.test(next)) continue;
    result += text.slice(start, at) + to;
    start = at + from.length;
  }
  return result + text.slice(start);
}

function baseName(file: string): string {
  return file.slice(file.lastIndexOf("/") + 1);
}
