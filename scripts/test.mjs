#!/usr/bin/env node
// Runs every check in order (lint, type-check + build, unit/integration tests, browser tests)
// and ends with one plain line "Tests: N passed, N failed" summing both Vitest runs.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

const reportDir = fs.mkdtempSync(path.join(os.tmpdir(), "tracemill-test-report-"));
const steps = [
  ["lint and format", "npx", ["biome", "check", "."]],
  ["type-check and build", "npm", ["run", "--silent", "build"]],
  ["type-check web", "npm", ["run", "--silent", "typecheck", "-w", "@tracemill/web"]],
  // The packages' builds leave their tests out; this checks the tests (and test helpers) against the sources.
  ["type-check tests", "npx", ["tsc", "-p", "tsconfig.tests.json"]],
  [
    "unit and integration tests",
    "npx",
    [
      "vitest",
      "run",
      "--reporter=default",
      "--reporter=json",
      `--outputFile.json=${path.join(reportDir, "unit.json")}`,
    ],
  ],
  [
    "browser tests",
    "npx",
    [
      "vitest",
      "run",
      "--config",
      "e2e/vitest.config.ts",
      "--reporter=default",
      "--reporter=json",
      `--outputFile.json=${path.join(reportDir, "e2e.json")}`,
    ],
  ],
];

let failedStep = null;
for (const [name, command, args] of steps) {
  process.stdout.write(`\n== ${name}\n`);
  const started = Date.now();
  const result = spawnSync(command, args, { stdio: "inherit" });
  process.stdout.write(
    `== ${name}: ${result.status === 0 ? "ok" : "FAILED"} (${((Date.now() - started) / 1000).toFixed(1)} s)\n`,
  );
  if (result.status !== 0) {
    failedStep = name;
    if (!name.includes("tests")) break;
  }
}

let passed = 0;
let failed = 0;
// The failed tests are named again at the end, where a CI log's tail shows them.
const failures = [];
for (const file of ["unit.json", "e2e.json"]) {
  const report = path.join(reportDir, file);
  if (!fs.existsSync(report)) continue;
  const json = JSON.parse(fs.readFileSync(report, "utf8"));
  passed += json.numPassedTests ?? 0;
  failed += (json.numFailedTests ?? 0) + (json.numTodoTests ?? 0) + (json.numPendingTests ?? 0);
  for (const suite of json.testResults ?? []) {
    const where = path.relative(process.cwd(), suite.name ?? "");
    for (const test of suite.assertionResults ?? []) {
      if (test.status === "passed") continue;
      const reason = (test.failureMessages?.[0] ?? test.status).split("\n")[0].slice(0, 300);
      failures.push(`${where} > ${test.fullName}: ${reason}`);
    }
    if (suite.status === "failed" && !(suite.assertionResults ?? []).some((test) => test.status === "failed")) {
      failures.push(`${where}: ${(suite.message ?? "failed").split("\n")[0].slice(0, 300)}`);
    }
  }
}
if (failures.length > 0) process.stdout.write(`\nNot passed:\n${failures.map((line) => `  ${line}`).join("\n")}\n`);
fs.rmSync(reportDir, { recursive: true, force: true });
if (failedStep && failed === 0) failed = 1;
process.stdout.write(`\nTests: ${passed} passed, ${failed} failed\n`);
process.exit(failedStep || failed > 0 ? 1 : 0);
