// The SHA-256 of a stored file: the one hasher of the server's files (uploads hash while they stream in).
import crypto from "node:crypto";
import fs from "node:fs";

/** Reads of 1 MiB into one buffer: a read stream's 64 KiB chunks cost several times the hashing on a busy host. */
const READ_BYTES = 1 << 20;

export async function sha256OfFile(file: string): Promise<string> {
  const hash = crypto.createHash("sha256");
  const handle = await fs.promises.open(file, "r");
  try {
    const buffer = Buffer.allocUnsafe(READ_BYTES);
    for (;;) {
      const { bytesRead } = await handle.read(buffer, 0, READ_BYTES, null);
      if (bytesRead === 0) break;
      hash.update(buffer.subarray(0, bytesRead));
    }
  } finally {
    await handle.close();
  }
  return hash.digest("hex");
}
