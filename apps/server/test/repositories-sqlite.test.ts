// Runs the repository suite on SQLite: a fresh database file, migrated from nothing, for each case.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { openDatabase } from "../src/db/connect.js";
import { repositorySuite } from "./repository-suite.js";

repositorySuite("SQLite", () =>
  openDatabase(path.join(fs.mkdtempSync(path.join(os.tmpdir(), "tracemill-db-")), "test.sqlite")),
);
