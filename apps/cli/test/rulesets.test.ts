// tracemill rulesets on a server's data directory: add (checked by the real Suricata), list, use in a sanitize job
// over HTTP on a server started on the same directory, remove.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { Client, fixture, startServer, waitForStatus } from "../../server/test/server-harness.js";
import { runCli } from "./run-cli.js";

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "tracemill-cli-rulesets-"));
const data = path.join(tmp, "data");
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

/** PPTP's control connection (TCP 1723) is in test/fixtures/capture/formats/pcap-be-us_pptp.pcap. */
const pptp =
  'alert tcp any any -> any 1723 (msg:"PPTP control"; flow:to_server; classtype:policy-violation; sid:9100001; rev:1;)\n';
const typo = 'alert tcp any any -> any any (msg:"typo"; conten:"x"; sid:9100002; rev:1;)\n';

function write(name: string, text: string): string {
  const file = path.join(tmp, name);
  fs.writeFileSync(file, text);
  return file;
}

const rulesets = (...args: string[]) => runCli(["rulesets", ...args, "--data", data]);

describe("tracemill rulesets", () => {
  it("refuses rules Suricata cannot load, with its error lines, and adds nothing", () => {
    const result = rulesets("add", "broken", write("typo.rules", typo));
    expect(result.status).toBe(1);
    expect(result.stderr).toContain("Suricata loads none of the rules");
    expect(result.stderr).toContain("unknown rule keyword 'conten'");
    expect(fs.existsSync(path.join(data, "rulesets"))).toBe(false);
  });

  it("adds rules, warning about the ones Suricata skips, and lists them beside the bundled ones", () => {
    const added = rulesets("add", "lab-pptp", write("pptp.rules", pptp), write("extra.rules", typo));
    expect(added.stderr).toContain(
      "warning: Suricata skips 1 rule:\nextra.rules line 1: unknown rule keyword 'conten'.",
    );
    expect(added.status).toBe(0);
    expect(added.stdout).toContain("added ruleset lab-pptp: 2 rules files, 2 rules");
    expect(fs.readdirSync(path.join(data, "rulesets/lab-pptp")).sort()).toEqual(["extra.rules", "pptp.rules"]);

    const listed = rulesets("list", "--json");
    expect(listed.status).toBe(0);
    const rows = JSON.parse(listed.stdout);
    expect(rows.map((r: { name: string; origin: string }) => `${r.origin}:${r.name}`)).toEqual([
      "bundled:default",
      "server:lab-pptp",
    ]);
    expect(rows[1]).toMatchObject({ ruleFiles: 2, rules: 2, ownClassification: false });
    expect(rulesets("list").stdout).toContain(
      "lab-pptp\tserver\t2 rules files, 2 rules, Suricata's classification.config",
    );
  });

  it("keeps bundled names reserved and refuses a name that leaves the directory", () => {
    const file = path.join(tmp, "pptp.rules");
    expect(rulesets("add", "default", file).stderr).toContain("bundled ruleset");
    expect(rulesets("add", "lab-pptp", file).stderr).toContain("already exists");
    const outside = rulesets("add", "../up", file);
    expect(outside.status).toBe(1);
    expect(outside.stderr).toContain("is not a ruleset name");
    expect(fs.existsSync(path.join(data, "up"))).toBe(false);
    expect(rulesets("remove", "default").stderr).toContain("cannot be removed");
  });

  it("offers the added ruleset on a server of the same data directory, whose sanitize jobs use it", async () => {
    const app = await startServer({ fake: false, workers: 1, dataDir: data });
    try {
      const client = new Client(app.url);
      await client.signUp("Rules");
      const offered = await client.call("GET", "/api/rulesets");
      expect(offered.body).toEqual([
        { id: "default", name: "default", description: expect.stringMatching(/^1 rules file, \d+ rules, own/) },
        {
          id: "lab-pptp",
          name: "lab-pptp",
          description: "2 rules files, 2 rules, Suricata's classification.config",
        },
      ]);
      const upload = await client.upload("pptp.pcap", fixture("pcap-be-us_pptp.pcap"));
      const create = (ruleset: string) =>
        client.call("POST", "/api/jobs", {
          title: ruleset,
          capability: "sanitize",
          params: { ruleset },
          inputs: { capture: { fileId: upload.body.id } },
        });
      const created = await create("lab-pptp");
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      const job = await waitForStatus(client, created.body.id, ["succeeded", "failed"], 60_000);
      expect(job.error).toBeNull();
      expect(job.summary.ruleset).toEqual({
        ruleFiles: ["extra.rules", "pptp.rules"],
        classificationFile: "classification.config",
      });
      expect(job.summary.alerts.bySignature.map((s: { sid: number }) => s.sid)).toEqual([9100001]);
      expect(job.summary.sessions.attacks).toBeGreaterThan(0);

      expect(rulesets("remove", "lab-pptp").stdout).toContain("removed ruleset lab-pptp");
      expect((await client.call("GET", "/api/rulesets")).body.map((r: { id: string }) => r.id)).toEqual(["default"]);
      // A removed ruleset is refused when the job is created, not when it runs.
      const gone = await create("lab-pptp");
      expect(gone.status).toBe(400);
      expect(gone.body.messages.join(" ")).toContain('no ruleset "lab-pptp"');
    } finally {
      await app.stop();
    }
  });
});
