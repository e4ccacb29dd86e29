#!/usr/bin/env -S node --no-concurrent-recompilation
// Entry point of the tracemill command. Its code is bundled into dist/bundle/ by `npm run build` (make start / make
// test run it; scripts/bundle-cli.mjs says why). The first line's Node flags are the engine's PASS_PROCESS_FLAGS
// (packages/engine/src/pass/process-flags.ts).
const args = process.argv.slice(2);
if (args.length === 1 && (args[0] === "--version" || args[0] === "-V")) {
  // The version alone needs none of the commands: answered before they load.
  const { TRACEMILL_VERSION } = await import("../dist/bundle/version.js");
  process.stdout.write(`${TRACEMILL_VERSION}\n`);
} else {
  const { main } = await import("../dist/bundle/main.js");
  process.exitCode = await main(args);
}
