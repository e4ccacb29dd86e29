// Test helper: reads a zip's entries with yauzl (an independent reader of what Tracemill writes), from a file or
// from a response body held in memory.
import yauzl from "yauzl";

export interface ZipEntry {
  name: string;
  crc: number;
  data: Buffer;
}

/** The first `limit` entries of a zip in central-directory order, with their bytes, and the zip's entry count. */
export async function readZipEntries(
  file: string,
  limit = Number.POSITIVE_INFINITY,
): Promise<{ count: number; entries: ZipEntry[] }> {
  const zip = await new Promise<yauzl.ZipFile>((resolve, reject) =>
    yauzl.open(file, { lazyEntries: true }, (error, opened) => (error ? reject(error) : resolve(opened))),
  );
  return { count: zip.entryCount, entries: await entriesOf(zip, limit) };
}

/** Every entry of a zip file by name. */
export async function readZip(file: string): Promise<Map<string, Buffer>> {
  return new Map((await readZipEntries(file)).entries.map((entry) => [entry.name, entry.data]));
}

/** Every entry of a zip held in memory, by name. */
export async function unzipBuffer(buffer: Buffer): Promise<Record<string, Buffer>> {
  const zip = await new Promise<yauzl.ZipFile>((resolve, reject) =>
    yauzl.fromBuffer(buffer, { lazyEntries: true }, (error, opened) => (error ? reject(error) : resolve(opened))),
  );
  return Object.fromEntries((await entriesOf(zip)).map((entry) => [entry.name, entry.data]));
}

async function entriesOf(zip: yauzl.ZipFile, limit = Number.POSITIVE_INFINITY): Promise<ZipEntry[]> {
  const entries: ZipEntry[] = [];
  await new Promise<void>((resolve, reject) => {
    zip.on("entry", (entry: yauzl.Entry) => {
      zip.openReadStream(entry, (error, stream) => {
        if (error) return reject(error);
        const chunks: Buffer[] = [];
        stream.on("data", (chunk: Buffer) => chunks.push(chunk));
        stream.on("end", () => {
          entries.push({ name: entry.fileName, crc: entry.crc32, data: Buffer.concat(chunks) });
          if (entries.length < limit) zip.readEntry();
          else {
            zip.close();
            resolve();
          }
        });
      });
    });
    zip.on("end", resolve);
    zip.on("error", reject);
    zip.readEntry();
  });
  return entries;
}
