// Preloaded into a Node process (node --import ./main-thread.mjs …) by side-by-side.sh: at exit, appends the
// main thread's CPU seconds (/proc/<pid>/task/<pid>/schedstat: time on a CPU, in ns) to the file named by
// MAIN_THREAD_LOG. With the hashing, reads and writes on other threads, the main thread's share is what a run
// cannot get below however many cores are idle.
import fs from "node:fs";

process.on("exit", () => {
  const [onCpuNs] = fs.readFileSync(`/proc/self/task/${process.pid}/schedstat`, "utf8").split(" ");
  fs.appendFileSync(process.env.MAIN_THREAD_LOG ?? "/dev/null", `${(Number(onCpuNs) / 1e9).toFixed(3)}\n`);
});
