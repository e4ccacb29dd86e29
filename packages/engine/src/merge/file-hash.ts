// SHA-256 of whole files, computed in a worker thread so it runs beside both merge passes instead of adding to
// them (the hash costs about as much CPU as a pass over the records, and a second core is usually free).
import { Worker } from "node:worker_threads";

// Plain CommonJS evaluated by the worker: no module file to resolve, whether running from src or dist.
const HASH_WORKER = `
const { parentPort, workerData } = require("node:worker_threads");
const fs = require("node:fs");
const crypto = require("node:crypto");
const buffer = Buffer.allocUnsafe(4 * 1024 * 1024);
const digests = workerData.map((file) => {
  const hash = crypto.createHash("sha256");
  const fd = fs.openSync(file, "r");
  try {
    for (let n; (n = fs.readSync(fd, buffer, 0, buffer.length, null)) > 0; ) hash.update(buffer.subarray(0, n));
  } finally {
    fs.closeSync(fd);
  }
  return hash.digest("hex");
});
parentPort.postMessage(digests);
`;

/**
 * The files' SHA-256 digests in hex, in order, hashed one after the other by one worker; `signal` stops it
 * (a failed merge should not keep hashing gigabytes). Rejects with the reason of a file that cannot be read.
 */
export function hashFiles(files: string[], signal: AbortSignal): Promise<string[]> {
  if (files.length === 0) return Promise.resolve([]);
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise((resolve, reject) => {
    const worker = new Worker(HASH_WORKER, { eval: true, workerData: files });
    const stop = () => {
      worker.terminate();
      reject(signal.reason);
    };
    signal.addEventListener("abort", stop, { once: true });
    worker.once("message", (digests: string[]) => {
      signal.removeEventListener("abort", stop);
      resolve(digests);
    });
    worker.once("error", (error) => {
      signal.removeEventListener("abort", stop);
      reject(error);
    });
    worker.once("exit", (code) => {
      if (code !== 0) reject(new Error(`hashing ${files.join(", ")} stopped with exit code ${code}`));
    });
  });
}
