// The read and decode stages of `tracemill extract` alone, in CPU seconds of the process and of the main thread, to
// compare reader/decoder changes: `node bench/extract/read-decode.mjs CAPTURE [ROOT] [PHASES]` (ROOT: a checkout whose
// packages are built, default this one; PHASES: comma-separated, default read,decode,extract-read).
//   read          readCapture with an empty callback: file reads, record parsing, packet statistics
//   decode        the same plus PacketDecoder.decode for every packet
//   extract-read  as the extract pass reads: readCaptureFile with its packet counter and the SHA-256 tap
//                 (InputDigests, its worker's CPU included in the process figure), decode and a switch on the kind
import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";

const [capture, rootArg, phasesArg] = process.argv.slice(2);
const root = path.resolve(rootArg ?? path.join(import.meta.dirname, "../.."));
const core = await import(pathToFileURL(path.join(root, "packages/core/dist/index.js")).href);
const engine = await import(pathToFileURL(path.join(root, "packages/engine/dist/index.js")).href);
const { DecodeKind, PacketDecoder } = core;
const ticks = 100; // USER_HZ on Linux

/** CPU seconds (user + sys) of this process and of its main thread, from /proc. */
function cpu() {
  const fields = (file) => fs.readFileSync(file, "utf8").split(") ")[1].split(" ");
  const main = fields(`/proc/self/task/${process.pid}/stat`);
  const used = process.cpuUsage();
  return { process: (used.user + used.system) / 1e6, main: (Number(main[11]) + Number(main[12])) / ticks };
}

async function phase(name, run) {
  const before = cpu();
  const started = process.hrtime.bigint();
  const { packets, note } = await run();
  const wall = Number(process.hrtime.bigint() - started) / 1e9;
  const after = cpu();
  const proc = after.process - before.process;
  const main = after.main - before.main;
  console.log(
    `${name.padEnd(13)} wall ${wall.toFixed(2)} s, process ${proc.toFixed(2)} CPU s, main ${main.toFixed(2)} CPU s, ` +
      `${((main * 1e9) / packets).toFixed(0)} ns a packet on the main thread (${packets} packets${note ? `, ${note}` : ""})`,
  );
}

const phases = {
  read: async () => {
    const result = await engine.readCapture(capture, () => {});
    return { packets: result.packets };
  },
  decode: async () => {
    const decoder = new PacketDecoder();
    let tcpUdp = 0;
    const result = await engine.readCapture(capture, (packet) => {
      const kind = decoder.decode(packet).kind;
      if (kind === DecodeKind.Tcp || kind === DecodeKind.Udp) tcpUdp++;
    });
    return { packets: result.packets, note: `${tcpUdp} TCP/UDP` };
  },
  "extract-read": async () => {
    const decoder = new PacketDecoder();
    const digests = new engine.InputDigests([capture], [undefined], { wait: true });
    let tcpUdp = 0;
    let counted = 0;
    const result = await engine.readCaptureFile(
      capture,
      (packet) => {
        const decoded = decoder.decode(packet);
        const kind = decoded.kind;
        if (kind === DecodeKind.Tcp || kind === DecodeKind.Udp) tcpUdp += decoded.srcPort === 0 ? 2 : 1;
      },
      { tap: digests.tap(0), onPackets: (n) => (counted = n) },
    );
    const [sha] = await digests.all();
    digests.close();
    return { packets: result.packets, note: `${tcpUdp} TCP/UDP, ${counted} counted, ${sha.slice(0, 12)}` };
  },
};

for (const name of (phasesArg ?? "read,decode,extract-read").split(",")) await phase(name, phases[name]);
