// The web bundle as the server sends it: hashed assets compressed (brotli, else gzip, from the copies the build
// wrote) and cached for a year as immutable; index.html and the client routes revalidated on every visit.
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import zlib from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ServedApp } from "../../cli/test/run-cli.js";
import { startServer } from "./server-harness.js";

const IMMUTABLE = "public, max-age=31536000, immutable";

/** A GET whose body is left as sent (fetch would undo the content encoding). */
function rawGet(url: string, headers: Record<string, string> = {}) {
  return new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }>((resolve, reject) => {
    http
      .get(url, { headers }, (response) => {
        const chunks: Buffer[] = [];
        response.on("data", (chunk: Buffer) => chunks.push(chunk));
        response.on("end", () =>
          resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks) }),
        );
      })
      .on("error", reject);
  });
}

const webDir = fs.mkdtempSync(path.join(os.tmpdir(), "tracemill-web-"));
const assetName = "index-Ab12Cd34.js";
// Varied enough that each encoding gives distinct bytes, repetitive enough to compress well.
const script = Buffer.from(
  Array.from({ length: 2000 }, (_, i) => `export const value${i} = ${(i * 7919) % 1000};\n`).join(""),
);
const indexHtml = `<!doctype html><html><head><title>Tracemill</title><script type="module" src="/assets/${assetName}"></script></head><body><div id="root"></div></body></html>`;

let app: ServedApp;
beforeAll(async () => {
  fs.mkdirSync(path.join(webDir, "assets"));
  fs.writeFileSync(path.join(webDir, "index.html"), indexHtml);
  const asset = path.join(webDir, "assets", assetName);
  fs.writeFileSync(asset, script);
  // The copies a build writes (apps/web/vite-precompress.ts), made here with zlib directly.
  fs.writeFileSync(`${asset}.br`, zlib.brotliCompressSync(script));
  fs.writeFileSync(`${asset}.gz`, zlib.gzipSync(script));
  app = await startServer({ env: { TRACEMILL_WEB_DIR: webDir } });
});
afterAll(async () => {
  await app?.stop();
  fs.rmSync(webDir, { recursive: true, force: true });
});

describe("web bundle", () => {
  it("sends a hashed asset brotli-compressed when accepted, immutable for a year, the same bytes once decoded", async () => {
    const answer = await rawGet(`${app.url}/assets/${assetName}`, { "Accept-Encoding": "br, gzip" });
    expect(answer.status).toBe(200);
    expect(answer.headers["content-encoding"]).toBe("br");
    expect(answer.headers["cache-control"]).toBe(IMMUTABLE);
    expect(answer.headers["content-type"]).toMatch(/^(text|application)\/javascript/);
    expect(answer.headers.vary?.toLowerCase()).toContain("accept-encoding");
    expect(answer.body.length).toBeLessThan(script.length / 3);
    expect(zlib.brotliDecompressSync(answer.body).equals(script)).toBe(true);
  });

  it("falls back to gzip, then to the plain file, by what the browser accepts", async () => {
    const gzip = await rawGet(`${app.url}/assets/${assetName}`, { "Accept-Encoding": "gzip" });
    expect(gzip.headers["content-encoding"]).toBe("gzip");
    expect(gzip.headers["cache-control"]).toBe(IMMUTABLE);
    expect(zlib.gunzipSync(gzip.body).equals(script)).toBe(true);

    const plain = await rawGet(`${app.url}/assets/${assetName}`, { "Accept-Encoding": "identity" });
    expect(plain.headers["content-encoding"]).toBeUndefined();
    expect(plain.headers["cache-control"]).toBe(IMMUTABLE);
    expect(plain.body.equals(script)).toBe(true);
  });

  it("revalidates index.html and the client routes on every visit", async () => {
    for (const route of ["/", "/index.html", "/ui/dataSets", "/ui/details?id=1"]) {
      const answer = await rawGet(`${app.url}${route}`, { "Accept-Encoding": "br, gzip" });
      expect(answer.status, route).toBe(200);
      expect(answer.headers["cache-control"], route).toBe("no-cache");
      expect(answer.headers["content-type"], route).toMatch(/^text\/html/);
      expect(answer.body.toString(), route).toBe(indexHtml);
    }
  });

  it("never marks an API answer or a missing asset immutable", async () => {
    const health = await rawGet(`${app.url}/api/health`);
    expect(health.headers["cache-control"] ?? "").not.toContain("immutable");
    const missing = await rawGet(`${app.url}/assets/index-missing.js`, { "Accept-Encoding": "br" });
    expect(missing.headers["cache-control"] ?? "").not.toContain("immutable");
  });
});
