// The SHA-256 of a stored file, streamed: the one hasher of the server's files (uploads hash while they stream in).
import crypto from "node:crypto";
import fs from "node:fs";

export async function sha256OfFile(file: string): Promise<string> {
  const hash = crypto.createHash("sha256");
  for await (const chunk of fs.createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest("hex");
}
