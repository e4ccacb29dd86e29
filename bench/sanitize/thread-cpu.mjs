// CPU time of this process split into its main thread and the others (V8's compiler and GC helpers, libuv's file
// I/O pool), from /proc (Linux; null elsewhere): where Tracemill's part runs, beyond process.cpuUsage()'s total.
import fs from "node:fs";

/** Milliseconds of user and system time: main thread, and all other threads together; null without /proc. */
export function threadCpu() {
  let tasks;
  try {
    tasks = fs.readdirSync("/proc/self/task");
  } catch {
    return null;
  }
  const tick = 10; // USER_HZ is 100 on Linux: one tick is 10 ms
  const times = { main: [0, 0], others: [0, 0] };
  for (const task of tasks) {
    let stat;
    try {
      stat = fs.readFileSync(`/proc/self/task/${task}/stat`, "utf8");
    } catch {
      continue; // a thread that ended meanwhile
    }
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    const into = task === String(process.pid) ? times.main : times.others;
    into[0] += Number(fields[11]) * tick;
    into[1] += Number(fields[12]) * tick;
  }
  return times;
}

/** "main user/system ms, other threads user/system ms" between two threadCpu() readings. */
export function threadCpuText(before, after) {
  if (!before || !after) return "per thread: n/a";
  const d = (k, i) => after[k][i] - before[k][i];
  // Threads that ended between the readings take their time with them: the "others" figure is a lower bound.
  return `main thread ${d("main", 0)}/${d("main", 1)} ms, other threads ${d("others", 0)}/${d("others", 1)} ms (user/system)`;
}
