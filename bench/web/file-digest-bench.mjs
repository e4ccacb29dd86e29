// The browser's SHA-256 of a picked file, side by side in Chromium (Debian's, through playwright-core as e2e/ does):
// @noble/hashes over the file's stream (the web app's way for files over 256 MiB) against arrayBuffer() and WebCrypto
// (its way up to 256 MiB), with the read and the digest timed apart. Rounds alternate; prints MiB/s for each.
//   node bench/web/file-digest-bench.mjs [--mib 200] [--rounds 3]
// Figures: docs/performance.md ("Job lists").
import fs from "node:fs";
import http from "node:http";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const args = process.argv.slice(2);
const option = (name, fallback) => (args.includes(name) ? Number(args[args.indexOf(name) + 1]) : fallback);
const mib = option("--mib", 200);
const rounds = option("--rounds", 3);

// The web app's own noble (apps/web's dependency), served as ES modules with an import map for its one bare import.
const noble = path.join(root, "apps/web/node_modules/@noble/hashes/esm");
const page = `<!doctype html><title>digest</title><script type="importmap">{"imports":{"@noble/hashes/crypto":"/noble/crypto.js"}}</script>`;
const server = http.createServer((request, response) => {
  const file = path.join(noble, path.basename(request.url ?? ""));
  if (request.url === "/") return response.end(page);
  if (!request.url?.startsWith("/noble/") || !fs.existsSync(file)) return response.writeHead(404).end();
  response.setHeader("Content-Type", "text/javascript");
  response.end(fs.readFileSync(file));
});
await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
  args: ["--no-sandbox", "--disable-gpu"],
});
try {
  const tab = await browser.newPage();
  await tab.goto(`http://127.0.0.1:${server.address().port}/`);
  const results = await tab.evaluate(
    async ({ mib, rounds }) => {
      const { sha256 } = await import("/noble/sha2.js");
      const bytes = new Uint8Array(mib * 1024 * 1024);
      for (let i = 0; i < bytes.length; i += 4096) bytes[i] = i & 255;
      const file = new File([bytes], "capture.pcap");
      const timed = async (work) => {
        const start = performance.now();
        const value = await work();
        return [performance.now() - start, value];
      };
      const out = [];
      for (let round = 0; round < rounds; round++) {
        const [streamed] = await timed(async () => {
          const hash = sha256.create();
          const reader = file.stream().getReader();
          for (let next = await reader.read(); !next.done; next = await reader.read()) hash.update(next.value);
          return hash.digest();
        });
        const [read, whole] = await timed(() => file.arrayBuffer());
        const [digest] = await timed(() => crypto.subtle.digest("SHA-256", new Uint8Array(whole)));
        out.push({ streamed, read, digest });
      }
      return out;
    },
    { mib, rounds },
  );
  const rate = (ms) => (mib / (ms / 1000)).toFixed(0).padStart(4);
  console.log(`${mib} MiB file, MiB/s:`);
  for (const { streamed, read, digest } of results) {
    console.log(
      `  noble over the stream ${rate(streamed)}; arrayBuffer + WebCrypto ${rate(read + digest)} (read ${rate(read)}, digest ${rate(digest)}); ${(streamed / (read + digest)).toFixed(2)}×`,
    );
  }
} finally {
  await browser.close();
  server.close();
}
