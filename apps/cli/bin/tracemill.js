#!/usr/bin/env node
// Entry point of the tracemill command; the code lives in dist/ once built (make start / make test build it).
import { main } from "../dist/main.js";

process.exitCode = await main(process.argv.slice(2));
