// Build step: a brotli (.br) and a gzip (.gz) copy beside each text asset of the build, written once, so the server
// sends compressed bytes (@fastify/static's preCompressed) without compressing on every request.
import fs from "node:fs";
import path from "node:path";
import zlib from "node:zlib";
import type { Plugin } from "vite";

const TEXT = /\.(js|mjs|css|html|svg|json|txt|map)$/;
/** Below this, the encoding header and the browser's work cost more than the bytes saved. */
const MIN_BYTES = 1024;

function filesUnder(dir: string): string[] {
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .flatMap((entry) => (entry.isDirectory() ? filesUnder(path.join(dir, entry.name)) : [path.join(dir, entry.name)]));
}

/** Writes `<file>.br` and `<file>.gz` for every text file of `dir` worth compressing; a copy no smaller is left out. */
export function precompressDir(dir: string): void {
  for (const file of filesUnder(dir)) {
    if (!TEXT.test(file)) continue;
    const bytes = fs.readFileSync(file);
    if (bytes.length < MIN_BYTES) continue;
    const copies: [string, Buffer][] = [
      [
        ".br",
        zlib.brotliCompressSync(bytes, {
          params: {
            [zlib.constants.BROTLI_PARAM_QUALITY]: zlib.constants.BROTLI_MAX_QUALITY,
            [zlib.constants.BROTLI_PARAM_SIZE_HINT]: bytes.length,
          },
        }),
      ],
      [".gz", zlib.gzipSync(bytes, { level: zlib.constants.Z_BEST_COMPRESSION })],
    ];
    for (const [suffix, compressed] of copies) {
      if (compressed.length < bytes.length) fs.writeFileSync(file + suffix, compressed);
    }
  }
}

export function precompress(): Plugin {
  let outDir = "dist";
  return {
    name: "tracemill-precompress",
    apply: "build",
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    closeBundle() {
      precompressDir(outDir);
    },
  };
}
