// Runs the repository suite on SQLite: a new database file in a temporary directory per case.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { jobListSuite } from "./job-list-suite.js";
import { libraryRepositorySuite } from "./library-repository-suite.js";
import { lineageSuite } from "./lineage-suite.js";
import { repositorySuite } from "./repository-suite.js";
import { uploadsSuite } from "./uploads-suite.js";

const newFile = async () => path.join(fs.mkdtempSync(path.join(os.tmpdir(), "tracemill-db-")), "test.sqlite");

repositorySuite("SQLite", newFile);
libraryRepositorySuite("SQLite", newFile);
jobListSuite("SQLite", newFile);
lineageSuite("SQLite", newFile);
uploadsSuite("SQLite", newFile);
