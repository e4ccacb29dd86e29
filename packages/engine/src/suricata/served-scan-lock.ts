// One scan at a time through a served Suricata, across processes. Suricata would queue the files of scans made at
// once, but a scan must be alone in the daemon to own the log lines it reads (an unreadable capture) and to interrupt
// only its own file, as the pools of one process already ensure (suricata-daemons.ts).
// The lock is a listening socket in Linux's abstract namespace, named after the daemon's directory: binding it is
// atomic, and the kernel frees the name when its holder exits, however it ends, so no stale lock survives a kill.
import crypto from "node:crypto";
import net from "node:net";
import { TracemillError } from "@tracemill/core";

const POLL_MS = 100;

/** Waits until this process alone scans through the daemon in `dir`; resolves to the function that lets it go. */
export async function lockServedScan(dir: string, signal?: AbortSignal): Promise<() => void> {
  const name = `\0tracemill-suricata-scan-${crypto.createHash("sha256").update(dir).digest("hex").slice(0, 40)}`;
  for (;;) {
    if (signal?.aborted) throw new TracemillError("CANCELLED", "sanitization was cancelled");
    const server = net.createServer();
    const held = await new Promise<boolean>((resolve, reject) => {
      server.once("error", (error: NodeJS.ErrnoException) =>
        error.code === "EADDRINUSE" ? resolve(false) : reject(error),
      );
      server.listen(name, () => resolve(true));
    });
    if (held) {
      // The lock must not keep a finished command alive.
      server.unref();
      return () => server.close();
    }
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}
