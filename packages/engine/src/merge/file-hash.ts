// SHA-256 of a whole file, computed in a worker thread so it overlaps the first pass instead of adding to it.
import { Worker } from "node:worker_threads";

// Plain CommonJS evaluated by the worker: no module file to resolve, whether running from src or dist.
const HASH_WORKER = `
const { parentPort, workerData } = require("node:worker_threads");
const fs = require("node:fs");
const hash = require("node:crypto").createHash("sha256");
const fd = fs.openSync(workerData, "r");
const buffer = Buffer.allocUnsafe(4 * 1024 * 1024);
try {
  for (let n; (n = fs.readSync(fd, buffer, 0, buffer.length, null)) > 0; ) hash.update(buffer.subarray(0, n));
} finally {
  fs.closeSync(fd);
}
parentPort.postMessage(hash.digest("hex"));
`;

/** The file's SHA-256 in hex; `signal` stops the worker (a failed pass should not keep hashing gigabytes). */
export function hashFile(file: string, signal: AbortSignal): Promise<string> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(HASH_WORKER, { eval: true, workerData: file });
    const stop = () => {
      worker.terminate();
      reject(signal.reason);
    };
    signal.addEventListener("abort", stop, { once: true });
    worker.once("message", (digest: string) => {
      signal.removeEventListener("abort", stop);
      resolve(digest);
    });
    worker.once("error", reject);
    worker.once("exit", (code) => {
      if (code !== 0) reject(new Error(`hashing ${file} stopped with exit code ${code}`));
    });
  });
}
