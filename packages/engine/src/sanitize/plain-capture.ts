// What Suricata can read: a gzip-compressed capture is unpacked to a temporary file; an empty one is refused early.
import fs from "node:fs";
import { pipeline } from "node:stream/promises";
import zlib from "node:zlib";
import { openPacketSource, TracemillError } from "@tracemill/core";

/** Bytes read to look for a first packet. */
const probeBytes = 1024 * 1024;

/** Returns `capture` itself, or the path of its unpacked copy (`unpacked`) when it is gzip-compressed. */
export async function plainCapture(capture: string, unpacked: string, signal?: AbortSignal): Promise<string> {
  const head = await readHead(capture);
  let plain = capture;
  let probe = head;
  if (head[0] === 0x1f && head[1] === 0x8b) {
    await pipeline(fs.createReadStream(capture), zlib.createGunzip(), fs.createWriteStream(unpacked), { signal });
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
