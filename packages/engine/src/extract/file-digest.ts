// SHA-256 of the input for the run summary, computed on a worker thread while the main thread extracts.
import { Worker } from "node:worker_threads";

/** A digest being computed; `cancel` stops the worker (the promise then never settles). */
export interface PendingDigest {
  digest: Promise<string>;
  cancel(): void;
}

/** Hashing runs beside the extraction (it reads the file on its own), so it adds no time on a machine with two cores. */
export function startSha256(file: string): PendingDigest {
  // Synchronous reads into one reused buffer: a stream would allocate (and page-fault in) a fresh buffer per chunk,
  // which costs more CPU than the hashing itself.
  const source = `
    const { parentPort, workerData } = require("node:worker_threads");
    const fs = require("node:fs");
    const hash = require("node:crypto").createHash("sha256");
    const buffer = Buffer.allocUnsafe(1 << 20);
    try {
      const fd = fs.openSync(workerData, "r");
      try {
        for (let n; (n = fs.readSync(fd, buffer, 0, buffer.length, null)) > 0; ) hash.update(buffer.subarray(0, n));
      } finally {
        fs.closeSync(fd);
      }
      parentPort.postMessage({ digest: hash.digest("hex") });
    } catch (error) {
      parentPort.postMessage({ error: error.message });
    }
  `;
  const worker = new Worker(source, { eval: true, workerData: file });
  const digest = new Promise<string>((resolve, reject) => {
    worker.once("message", (message: { digest?: string; error?: string }) => {
      worker.terminate();
      if (message.digest !== undefined) resolve(message.digest);
      else reject(new Error(message.error));
    });
    worker.once("error", reject);
  });
  return { digest, cancel: () => void worker.terminate() };
}

/** The file's SHA-256 in hex (see startSha256). */
export function sha256OfFile(file: string): Promise<string> {
  return startSha256(file).digest;
}
