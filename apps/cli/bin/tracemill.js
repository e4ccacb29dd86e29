#!/usr/bin/env -S node --no-concurrent-recompilation
// Entry point of the tracemill command; the code lives in dist/ once built (make start / make test build it).
// The first line's Node flags are the engine's PASS_PROCESS_FLAGS (packages/engine/src/pass/process-flags.ts).
import { main } from "../dist/main.js";

process.exitCode = await main(process.argv.slice(2));
