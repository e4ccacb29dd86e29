// The server's rulesets directory: its setting, GET /api/rulesets over bundled and server rulesets, and sanitize jobs
// (run by worker processes) resolving names in both.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { loadConfig } from "../src/config.js";
import { Client, fixture, startServer, waitForStatus } from "./server-harness.js";

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "tracemill-server-rulesets-"));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

describe("the rulesets setting", () => {
  it("defaults to <data dir>/rulesets and follows TRACEMILL_RULESETS_DIR", () => {
    expect(loadConfig({ dataDir: "/srv/tm" }, {}).rulesetsDir).toBe("/srv/tm/rulesets");
    expect(loadConfig({ dataDir: "/srv/tm" }, { TRACEMILL_RULESETS_DIR: "/opt/rules" }).rulesetsDir).toBe("/opt/rules");
  });
});

describe("rulesets on a server", () => {
  it("offers bundled and server rulesets, names unique, and runs sanitize jobs with either", async () => {
    const dir = path.join(tmp, "rulesets");
    fs.mkdirSync(path.join(dir, "tcp-syn"), { recursive: true });
    fs.writeFileSync(
      path.join(dir, "tcp-syn/syn.rules"),
      '# every TCP SYN\nalert tcp any any -> any any (msg:"SYN"; flags:S,12; classtype:misc-activity; sid:9200001; rev:1;)\n',
    );
    fs.copyFileSync("/etc/suricata/classification.config", path.join(dir, "tcp-syn/classification.config"));
    // Put here by hand under a bundled name: never offered, and "default" stays the bundled one.
    fs.mkdirSync(path.join(dir, "default"));
    fs.writeFileSync(path.join(dir, "default/shadow.rules"), 'alert ip any any -> any any (msg:"x"; sid:9200002;)\n');

    const app = await startServer({ fake: false, workers: 1, env: { TRACEMILL_RULESETS_DIR: dir } });
    try {
      const client = new Client(app.url);
      await client.signUp("Rulesets");
      const offered = await client.call("GET", "/api/rulesets");
      expect(offered.status).toBe(200);
      expect(offered.body.map((r: { id: string }) => r.id)).toEqual(["default", "tcp-syn"]);
      expect(offered.body[1].description).toBe("1 rules file, 1 rule, own classification.config");

      const upload = await client.upload("pptp.pcap", fixture("pcap-be-us_pptp.pcap"));
      const run = async (ruleset: string) => {
        const created = await client.call("POST", "/api/jobs", {
          title: ruleset,
          capability: "sanitize",
          params: { ruleset },
          inputs: { capture: { fileId: upload.body.id } },
        });
        expect(created.status, JSON.stringify(created.body)).toBe(201);
        return waitForStatus(client, created.body.id, ["succeeded", "failed"], 60_000);
      };
      const [own, bundled] = await Promise.all([run("tcp-syn"), run("default")]);
      expect(own.error).toBeNull();
      expect(own.summary.ruleset.ruleFiles).toEqual(["syn.rules"]);
      expect(own.summary.alerts.bySignature.map((s: { sid: number }) => s.sid)).toEqual([9200001]);
      expect(own.summary.sessions.attacks).toBeGreaterThan(0);
      expect(bundled.error).toBeNull();
      expect(bundled.summary.ruleset.ruleFiles).toEqual(["tracemill.rules"]);
    } finally {
      await app.stop();
    }
  });
});
