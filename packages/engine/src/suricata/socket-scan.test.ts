// The end of a scan through a loaded Suricata, against a command socket that speaks Suricata's protocol and moves the
// file from its queue to its reader at the worst moment: right after answering that the file is not being read.
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { scanWithDaemon } from "./socket-scan.js";

const dirs: string[] = [];
const servers: net.Server[] = [];
afterEach(() => {
  for (const server of servers.splice(0)) server.close();
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

/**
 * A daemon with a queue and a reader. A queued file starts being read just after a `pcap-current` answer, and is read
 * for `readPolls` more `pcap-current` questions; `done` says whether it was read to the end.
 */
function fakeDaemon(dir: string, readPolls: number) {
  const state = { queue: [] as string[], current: "None", polls: 0, done: false };
  const server = net.createServer((socket) => {
    socket.setEncoding("utf8");
    let buffer = "";
    socket.on("data", (text: string) => {
      buffer += text;
      for (let nl = buffer.indexOf("\n"); nl >= 0; nl = buffer.indexOf("\n")) {
        const asked = JSON.parse(buffer.slice(0, nl)) as { command?: string; arguments?: { filename: string } };
        buffer = buffer.slice(nl + 1);
        socket.write(`${JSON.stringify(answer(asked))}\n`);
      }
    });
  });
  const answer = (asked: { command?: string; arguments?: { filename: string } }) => {
    switch (asked.command) {
      case undefined:
        return { return: "OK" };
      case "pcap-file":
        state.queue.push(asked.arguments?.filename ?? "");
        return { return: "OK", message: "Successfully added file to list" };
      case "pcap-file-list":
        return { return: "OK", message: { count: state.queue.length, files: [...state.queue] } };
      case "pcap-current": {
        const now = state.current;
        if (now !== "None" && ++state.polls > readPolls) {
          state.current = "None";
          state.done = true;
        }
        // The reader takes the next file just after this answer left.
        if (state.current === "None" && state.queue.length > 0) state.current = state.queue.shift() ?? "None";
        return { return: "OK", message: now };
      }
      default:
        return { return: "NOK", message: `unknown command ${asked.command}` };
    }
  };
  const socketPath = path.join(dir, "suricata.socket");
  servers.push(server);
  return new Promise<{ state: typeof state; socketPath: string }>((resolve) =>
    server.listen(socketPath, () => resolve({ state, socketPath })),
  );
}

describe("scanWithDaemon", () => {
  it("waits for a file the daemon takes from its queue between two questions, until it is read", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "tracemill-socket-scan-"));
    dirs.push(dir);
    const capture = path.join(dir, "capture.pcap");
    fs.writeFileSync(capture, "");
    const logFile = path.join(dir, "suricata.log");
    fs.writeFileSync(logFile, "");
    const { state, socketPath } = await fakeDaemon(dir, 3);
    await scanWithDaemon(
      capture,
      { socketPath, logFile, pid: process.pid, version: "7.0.10", ruleErrors: [] },
      path.join(dir, "work"),
    );
    expect(state.done).toBe(true);
    expect(state.polls).toBeGreaterThan(3);
  });
});
