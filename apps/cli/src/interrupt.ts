// Ctrl-C (SIGINT) or SIGTERM during a capture command: the run stops at its next chunk, removes its partial outputs
// (the engine's contract for an aborted run) and the command exits 130; a second signal exits at once.
const controller = new AbortController();
let watching = false;

/** The signal a capture command gives the engine; watching for SIGINT and SIGTERM starts with the first call. */
export function interruptSignal(): AbortSignal {
  if (!watching) {
    watching = true;
    const stop = () => {
      if (controller.signal.aborted) process.exit(130);
      process.stderr.write("\ntracemill: stopping (press Ctrl-C again to quit at once)…\n");
      controller.abort();
    };
    process.on("SIGINT", stop);
    process.on("SIGTERM", stop);
  }
  return controller.signal;
}

/** A signal asked the command to stop. */
export function interrupted(): boolean {
  return controller.signal.aborted;
}
