// How far Suricata has read a capture: the offset of its open file, from /proc/<pid>/fdinfo (Linux). Suricata's
// single run mode reads and inspects on one thread, so the bytes read are the bytes inspected, to libpcap's buffer.
import fs from "node:fs";

const POLL_MS = 250;

/**
 * Calls `onFraction` with the fraction of `file` that process `pid()` has read, every 250 ms while it has the file
 * open (never before: until then Suricata is loading its rules). Returns the function that stops watching.
 */
export function watchReading(pid: () => number | undefined, file: string, onFraction: (fraction: number) => void) {
  let target: string;
  let size: number;
  try {
    target = fs.realpathSync(file);
    size = fs.statSync(target).size;
  } catch {
    return () => {};
  }
  let fd: string | undefined;
  let watched: number | undefined;
  const timer = setInterval(() => {
    const current = pid();
    if (current === undefined || size === 0) return;
    if (current !== watched) {
      watched = current;
      fd = undefined;
    }
    try {
      fd ??= findDescriptor(current, target);
      if (fd === undefined) return;
      const info = fs.readFileSync(`/proc/${current}/fdinfo/${fd}`, "utf8");
      const pos = Number(/^pos:\s*(\d+)/m.exec(info)?.[1] ?? Number.NaN);
      if (Number.isFinite(pos)) onFraction(Math.min(1, pos / size));
    } catch {
      // The file was closed (the scan ended) or the process is gone: its end is reported elsewhere.
      fd = undefined;
    }
  }, POLL_MS);
  return () => clearInterval(timer);
}

function findDescriptor(pid: number, target: string): string | undefined {
  for (const fd of fs.readdirSync(`/proc/${pid}/fd`)) {
    try {
      if (fs.readlinkSync(`/proc/${pid}/fd/${fd}`) === target) return fd;
    } catch {}
  }
  return undefined;
}
