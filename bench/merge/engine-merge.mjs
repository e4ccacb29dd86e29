// Runs the merge capability in-process (no CLI start-up, only the merge module loaded), for bench/merge/run.sh:
// node engine-merge.mjs BG ATK OUTDIR
import { mergeCaptures } from "../../packages/engine/dist/merge/index.js";

const [background, attacks, outDir] = process.argv.slice(2);
const result = await mergeCaptures(background, attacks, { outDir, output: "engine.pcap" });
process.stdout.write(`${result.summary.packets} packets\n`);
