// What the gallery and the IPT plots cost on a real output, through the engine the server calls (engine/browse), run
// by hand after `npx tsc -b` on outputs made by the command, e.g.
//   tracemill images /tmp/bench/bench-small.pcap -o /tmp/g/images.zip     (and -n 1 for one image per session)
//   tracemill ipt /tmp/bench/bench-small.pcap -o /tmp/g/ipt.txt           (writes /tmp/g/ipt.csv beside it)
//   node bench/server/pictures-bench.mjs --images /tmp/g/images.zip --ipt /tmp/g/ipt.txt --csv /tmp/g/ipt.csv
// Prints the time of each step (the index built on a first request, then pages, PNGs, searches and series) and the
// index's size in memory; the best of --rounds rounds.
import { openImageGallery, openIptOutput } from "../../packages/engine/dist/index.js";

const args = process.argv.slice(2);
const option = (name) => {
  const at = args.indexOf(name);
  return at >= 0 ? args[at + 1] : undefined;
};
const rounds = Number(option("--rounds") ?? 3);
const images = option("--images");
const ipt = option("--ipt");
const csv = option("--csv");
if (!images && !(ipt && csv)) {
  console.error("usage: node bench/server/pictures-bench.mjs [--images ZIP] [--ipt TXT --csv CSV] [--rounds N]");
  process.exit(2);
}

const best = {};
async function time(name, work) {
  const start = process.hrtime.bigint();
  const result = await work();
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  best[name] = Math.min(best[name] ?? Number.POSITIVE_INFINITY, ms);
  return result;
}

for (let round = 0; round < rounds; round++) {
  if (images) {
    const gallery = await time("gallery: open (index)", () => openImageGallery(images, "images.zip"));
    best["gallery: images, sessions, index MB"] = [gallery.images, gallery.sessions, gallery.bytes / 2 ** 20];
    await time("gallery: first page (24)", () => gallery.page(0, 24));
    const middle = Math.floor(gallery.images / 2);
    await time("gallery: a page in the middle (24)", () => gallery.page(middle, 24));
    await time("gallery: 24 PNGs in the middle", async () => {
      for (let n = 1; n <= 24; n++) await gallery.png(middle + n);
    });
  }
  if (ipt && csv) {
    const files = { ipt: { path: ipt, label: "ipt.txt" }, csv: { path: csv, label: "features.csv" } };
    const output = await time("ipt: open (index)", () => openIptOutput(files));
    best["ipt: sessions, index MB"] = [output.sessions, output.bytes / 2 ** 20];
    const all = { from: 1, limit: 20, minPackets: 2, scan: 200_000 };
    const first = await time("ipt: first 20 sessions of 2+ packets", () =>
      output.find({ ports: [], addresses: [] }, all),
    );
    await time("ipt: search for an address not there (200 000 rows)", () =>
      output.find({ ports: [], addresses: [{ text: "203.0.113.250", whole: true }] }, all),
    );
    const rows = first.sessions.slice(0, 8).map((s) => s.row);
    await time("ipt: 8 series", () => output.series(rows, 5000));
    await time("ipt: 8 series at the end", () =>
      output.series(
        Array.from({ length: 8 }, (_, i) => output.sessions - i),
        5000,
      ),
    );
  }
}
for (const [name, value] of Object.entries(best)) {
  console.log(
    `${name}: ${Array.isArray(value) ? value.map((v) => +v.toFixed(2)).join(", ") : `${value.toFixed(1)} ms`}`,
  );
}
