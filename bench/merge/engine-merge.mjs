// Runs the merge capability in-process (no CLI start-up, only the merge module loaded), for bench/merge/run.sh:
// node engine-merge.mjs BG ATK OUTDIR [BG_SHA256 ATK_SHA256]
// With the two digests given, the merge records them instead of hashing the inputs (as a server job does).
// env HASHING=worker|first-pass: where the inputs are hashed (default: the engine's choice by load).
import { mergeCaptures } from "../../packages/engine/dist/merge/index.js";

const [background, attacks, outDir, backgroundHash, attacksHash] = process.argv.slice(2);
const inputHashes = backgroundHash ? { background: backgroundHash, attacks: attacksHash } : undefined;
const hashing = process.env.HASHING || undefined;
const result = await mergeCaptures(background, attacks, { outDir, output: "engine.pcap", inputHashes, hashing });
process.stdout.write(`${result.summary.packets} packets\n`);
