// Entry of the process that reads library captures for the listings' cache (scanner.ts forks it): one file at a time,
// at a lower priority than the server, so a 50 GB capture neither holds the server's event loop nor its CPU.
import { scanCapture } from "./capture-scan.js";
import type { FromScan, ToScan } from "./scan-messages.js";

process.on("message", (message: ToScan) => {
  scanCapture(message.file, { hash: message.hash }).then(
    (scan) => process.send?.({ type: "done", ...scan } satisfies FromScan),
    (error: unknown) => {
      const reason = error instanceof Error ? error.message : String(error);
      process.send?.({ type: "failed", message: reason } satisfies FromScan);
    },
  );
});
// The server going away, or done with it: nothing here is worth finishing.
process.on("disconnect", () => process.exit(0));
