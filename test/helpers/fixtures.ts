// Paths into test/fixtures (test/fixtures/SOURCES.md lists every file): the captures library and the alert files.
import fs from "node:fs";
import path from "node:path";

export const fixturesDir = path.resolve(import.meta.dirname, "../fixtures");
/** The captures library: formats/, benign/ and attacks/, each capture stored once. */
export const capturesDir = path.join(fixturesDir, "capture");

/**
 * A fixture by its file name: a capture of the library (names are unique across its folders) or an alert file
 * of alerts/. A name with a folder ("sanitize/suricata-verify/bug-28/test.rules") is a path under test/fixtures.
 */
export function fixturePath(name: string): string {
  const candidates = name.includes("/")
    ? [path.join(fixturesDir, name)]
    : [
        ...["formats", "benign", "attacks"].map((dir) => path.join(capturesDir, dir, name)),
        path.join(fixturesDir, "alerts", name),
      ];
  const found = candidates.find((file) => fs.existsSync(file));
  if (found === undefined) throw new Error(`${name}: no such fixture under test/fixtures (see its SOURCES.md)`);
  return found;
}
