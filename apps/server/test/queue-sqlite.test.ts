// Runs the queue suite on SQLite: a new database file in a temporary directory per case.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { queueSuite } from "./queue-suite.js";

queueSuite("SQLite", async () => path.join(fs.mkdtempSync(path.join(os.tmpdir(), "tracemill-queue-")), "test.sqlite"));
