// What a job shows its users names files as they know them: the engine's messages and summaries name the paths it
// was given (a stored input under the job's work directory, an output under the data directory), which say nothing
// to a user and tell them how the server lays out its disk.

/**
 * `text` with each of `paths` replaced by its file name, and `dirs` (with their trailing slash) removed. Works on
 * JSON text too: a path is matched as JSON writes it inside a string.
 */
export function withoutServerPaths(text: string, paths: readonly string[], dirs: readonly string[]): string {
  let result = text;
  // Longer first, so that no path is cut by a shorter one it starts with.
  const byLength = [...paths.map((p) => [p, baseName(p)]), ...dirs.map((d) => [`${d.replace(/\/$/, "")}/`, ""])].sort(
    (a, b) => b[0].length - a[0].length,
  );
  for (const [from, to] of byLength) {
    if (from === "" || from === "/") continue;
    result = result.split(from).join(to);
    const escaped = JSON.stringify(from).slice(1, -1);
    if (escaped !== from) result = result.split(escaped).join(JSON.stringify(to).slice(1, -1));
  }
  return result;
}

function baseName(file: string): string {
  return file.slice(file.lastIndexOf("/") + 1);
}
