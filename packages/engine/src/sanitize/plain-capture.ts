// What Suricata can read: a gzip-compressed capture is unpacked and an ERF one rewritten as pcapng (libpcap reads
// neither) in a temporary file; an empty one is refused early.
import fs from "node:fs";
import { openPacketSource, PcapngWriter, TracemillError } from "@tracemill/core";
import { gunzipToFile } from "../input/gunzip.js";
import { forEachPacket } from "./packet-stream.js";

/** Bytes read to look for a first packet. */
const probeBytes = 1024 * 1024;

/** Returns `capture` itself, or the path of its readable copy (`unpacked`, `unpacked`.pcapng) made in the work directory. */
export async function plainCapture(capture: string, unpacked: string, signal?: AbortSignal): Promise<string> {
  const head = await readHead(capture);
  let plain = capture;
  let probe = head;
  if (head[0] === 0x1f && head[1] === 0x8b) {
    await gunzipToFile(capture, unpacked, { signal });
    plain = unpacked;
    probe = await readHead(unpacked);
  }
  let source: ReturnType<typeof openPacketSource>;
  try {
    source = openPacketSource(probe);
    if (probe.length < probeBytes) source.end();
    if (source.next() === null && source.done) throw new TracemillError("BAD_INPUT", "it holds no packet");
  } catch (error) {
    if (error instanceof TracemillError) {
      throw new TracemillError(error.code, `${capture}: ${error.message}: nothing to sanitize`, {
        ...error.context,
        file: capture,
      });
    }
    throw error;
  }
  if (source.info.format === "erf") {
    const converted = `${unpacked}.pcapng`;
    const file = fs.createWriteStream(converted);
    let writer: PcapngWriter | undefined;
    await forEachPacket(plain, { signal }, (packet) => {
      writer ??= new PcapngWriter((chunk) => {
        file.write(chunk);
      });
      writer.write(packet);
      return file.writableNeedDrain ? new Promise((resolve) => file.once("drain", () => resolve())) : undefined;
    });
    writer?.finish();
    await new Promise<void>((resolve, reject) => {
      file.once("error", reject);
      file.end(() => resolve());
    });
    return converted;
  }
  return plain;
}

async function readHead(file: string): Promise<Uint8Array> {
  const handle = await fs.promises.open(file, "r");
  try {
    const buffer = Buffer.alloc(probeBytes);
    const { bytesRead } = await handle.read(buffer, 0, probeBytes, 0);
    return buffer.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}
