// Loaded Suricatas lent by a pool to its job processes over IPC: the pool owns the daemons (a job's crash cannot take
// one down, a daemon's crash fails no more than the scan using it), a sanitize job borrows one for its passes.
import type { ChildProcess } from "node:child_process";
import { type ErrorCode, TracemillError } from "@tracemill/core/errors";
import type { DaemonLease, DaemonSetup, DaemonSource, SuricataDaemons } from "@tracemill/engine";

export type DaemonRequest =
  | { type: "suricata-acquire"; id: number; setup: DaemonSetup }
  | { type: "suricata-release"; id: number; broken: boolean };

export type DaemonReply =
  | { type: "suricata-loading"; id: number }
  | { type: "suricata-lease"; id: number; lease: DaemonLease }
  | { type: "suricata-released"; id: number }
  | { type: "suricata-refused"; id: number; code: string; message: string };

export function isDaemonRequest(message: { type: string }): message is DaemonRequest {
  return message.type === "suricata-acquire" || message.type === "suricata-release";
}

/**
 * The pool's side for one job process: answers its requests, and when the process ends gives back what it held
 * (a scan it left in the daemon is interrupted) and stops waiting for what it asked.
 */
export function lendDaemons(child: ChildProcess, daemons: SuricataDaemons) {
  const held = new Map<number, DaemonLease>();
  const gone = new AbortController();
  const reply = (message: DaemonReply) => {
    if (child.connected) child.send(message, () => {});
  };
  child.once("exit", () => {
    gone.abort();
    for (const lease of held.values()) void daemons.release(lease, false).catch(() => {});
    held.clear();
  });
  return (request: DaemonRequest): void => {
    if (request.type === "suricata-acquire") {
      daemons
        .acquire(request.setup, {
          signal: gone.signal,
          onLoading: () => reply({ type: "suricata-loading", id: request.id }),
        })
        .then(
          (lease) => {
            if (gone.signal.aborted) return void daemons.release(lease, false);
            held.set(request.id, lease);
            reply({ type: "suricata-lease", id: request.id, lease: { ...plainLease(lease) } });
          },
          (error: { code?: unknown; message?: unknown }) =>
            reply({
              type: "suricata-refused",
              id: request.id,
              code: typeof error?.code === "string" ? error.code : "TOOL_FAILED",
              message: String(error?.message ?? error),
            }),
        );
      return;
    }
    const lease = held.get(request.id);
    held.delete(request.id);
    void (lease ? daemons.release(lease, request.broken) : Promise.resolve())
      .catch(() => {})
      .then(() => reply({ type: "suricata-released", id: request.id }));
  };
}

function plainLease(lease: DaemonLease): DaemonLease {
  const { socketPath, logFile, pid, version, ruleErrors, commandTimeoutMs } = lease;
  return { socketPath, logFile, pid, version, ruleErrors, commandTimeoutMs };
}

/** The job process's side: a DaemonSource whose daemons its pool owns. */
export function borrowedDaemons(): DaemonSource & { onReply(message: DaemonReply): void } {
  let next = 0;
  const waiting = new Map<number, { loading?: () => void; settle: (reply: DaemonReply) => void }>();
  const ids = new Map<DaemonLease, number>();
  const ask = (request: DaemonRequest, loading?: () => void) =>
    new Promise<DaemonReply>((resolve) => {
      waiting.set(request.id, { loading, settle: resolve });
      process.send?.(request);
    });
  return {
    async acquire(setup, options = {}) {
      const id = ++next;
      const { ruleFiles, classificationFile, homeNet, externalNet, runmode, suricataPath } = setup;
      const asked = ask(
        {
          type: "suricata-acquire",
          id,
          setup: { ruleFiles, classificationFile, homeNet, externalNet, runmode, suricataPath },
        },
        options.onLoading,
      );
      const cancelled = new Promise<never>((_, reject) => {
        const fail = () => reject(new TracemillError("CANCELLED", "sanitization was cancelled"));
        if (options.signal?.aborted) fail();
        options.signal?.addEventListener("abort", fail, { once: true });
      });
      // A lease that comes after a cancel stays with this process, which is ending: the pool takes it back then.
      const answer = await Promise.race([asked, cancelled]);
      if (answer.type === "suricata-refused") {
        throw new TracemillError(answer.code as ErrorCode, answer.message);
      }
      if (answer.type !== "suricata-lease") throw new Error(`unexpected answer ${answer.type}`);
      ids.set(answer.lease, id);
      return answer.lease;
    },
    async release(lease, broken) {
      const id = ids.get(lease);
      if (id === undefined) return;
      ids.delete(lease);
      await ask({ type: "suricata-release", id, broken });
    },
    onReply(message) {
      const entry = waiting.get(message.id);
      if (!entry) return;
      if (message.type === "suricata-loading") {
        entry.loading?.();
        return;
      }
      waiting.delete(message.id);
      entry.settle(message);
    },
  };
}
