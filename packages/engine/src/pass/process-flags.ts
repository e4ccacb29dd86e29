// Node flags for a process that runs the capabilities' passes (the tracemill command, a server's job process).

/**
 * `--no-concurrent-recompilation`: V8 optimizes hot functions on the thread that runs them instead of on a helper
 * thread. A pass is one long hot loop; on one core the helper competed with it for the core while the loop ran on in
 * slower code, and on two it competed with the hashing worker and the file reads: with the flag a pass takes less
 * time on one core and no more on two (docs/performance.md, "Design decisions"). V8 reads the
 * flag only when the process starts, so it is given on the command line: the job process is started with these, and
 * the tracemill command's first line (apps/cli/bin/tracemill.js) names the same (a test checks that they agree).
 */
export const PASS_PROCESS_FLAGS: readonly string[] = ["--no-concurrent-recompilation"];
