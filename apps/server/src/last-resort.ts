// The last line of defence of a long-running process (the server, a worker pool): a promise that fails with nobody
// waiting for it is logged, and the process keeps serving. Ending it instead (Node's default, and the `tracemill`
// command's policy, right for a one-shot command) would end every user's requests and running jobs. The known
// causes are handled where they arise; this is for the ones not yet known.
let installed = false;

export function logUnhandledRejections(): void {
  if (installed) return;
  installed = true;
  // This policy replaces the command's for the rest of the process's life.
  process.removeAllListeners("unhandledRejection");
  process.on("unhandledRejection", (reason) => {
    const text = reason instanceof Error ? (reason.stack ?? reason.message) : String(reason);
    process.stderr.write(`tracemill: an operation failed with nobody waiting for its result (kept running): ${text}\n`);
  });
}
