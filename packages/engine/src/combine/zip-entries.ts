// Reads the entries of a zip that Tracemill wrote (an images zip), one at a time, through yauzl: a well-kept reader
// that knows Zip64 and checks every entry's CRC-32 as it is read.
import type { Readable } from "node:stream";
import { TracemillError } from "@tracemill/core";
import type * as Yauzl from "yauzl";

export interface ZipEntryReader {
  /** The entries in the order of the central directory, each with a way to read its bytes. */
  entries(): AsyncGenerator<{ name: string; size: number; crc: number; open(): Promise<Readable> }>;
  close(): void;
}

export async function openZip(file: string): Promise<ZipEntryReader> {
  const { default: yauzl } = (await import("yauzl")) as unknown as { default: typeof Yauzl };
  const zip = await new Promise<Yauzl.ZipFile>((resolve, reject) =>
    yauzl.open(file, { lazyEntries: true, autoClose: false }, (error, opened) =>
      error ? reject(broken(file, error)) : resolve(opened),
    ),
  );
  return {
    async *entries() {
      for (;;) {
        const entry = await new Promise<Yauzl.Entry | null>((resolve, reject) => {
          const onEntry = (found: Yauzl.Entry) => settle(() => resolve(found));
          const onEnd = () => settle(() => resolve(null));
          const onError = (error: Error) => settle(() => reject(broken(file, error)));
          const settle = (then: () => void) => {
            zip.off("entry", onEntry).off("end", onEnd).off("error", onError);
            then();
          };
          zip.on("entry", onEntry).on("end", onEnd).on("error", onError);
          zip.readEntry();
        });
        if (entry === null) return;
        yield {
          name: entry.fileName,
          size: entry.uncompressedSize,
          crc: entry.crc32,
          open: () =>
            new Promise<Readable>((resolve, reject) =>
              zip.openReadStream(entry, (error, stream) => (error ? reject(broken(file, error)) : resolve(stream))),
            ),
        };
      }
    },
    close: () => zip.close(),
  };
}

function broken(file: string, error: Error): TracemillError {
  return new TracemillError("BAD_INPUT", `${file}: not a readable zip (${error.message})`, { file });
}
