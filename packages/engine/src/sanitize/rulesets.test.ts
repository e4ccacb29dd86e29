// Rulesets: listing, resolving by name, validating rules with `suricata -T`, and the bundled default ruleset.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseClassificationConfig } from "@tracemill/core";
import { afterAll, describe, expect, it } from "vitest";
import {
  bundledRulesetsDir,
  defaultRulesetDir,
  listRulesets,
  resolveRuleset,
  suricataClassificationFile,
  validateRules,
} from "./rulesets.js";

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "tracemill-rulesets-"));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

describe("rulesets", () => {
  it("lists ruleset directories with their rules and classification file", async () => {
    fs.mkdirSync(path.join(tmp, "b-own"));
    fs.writeFileSync(path.join(tmp, "b-own/x.rules"), "");
    fs.writeFileSync(path.join(tmp, "b-own/classification.config"), "config classification: a,A,1\n");
    fs.mkdirSync(path.join(tmp, "a-plain"));
    fs.writeFileSync(path.join(tmp, "a-plain/2.rules"), "");
    fs.writeFileSync(path.join(tmp, "a-plain/1.rules"), "");
    fs.mkdirSync(path.join(tmp, "not-a-ruleset"));
    const rulesets = await listRulesets(tmp);
    expect(rulesets.map((r) => r.name)).toEqual(["a-plain", "b-own"]);
    expect(rulesets[0].ruleFiles.map((f) => path.basename(f))).toEqual(["1.rules", "2.rules"]);
    expect(rulesets[0].classificationFile).toBe(suricataClassificationFile);
    expect(rulesets[1].classificationFile).toBe(path.join(tmp, "b-own/classification.config"));
    expect(await listRulesets(path.join(tmp, "missing"))).toEqual([]);
  });

  it("resolves a name inside the directory only", async () => {
    expect((await resolveRuleset("b-own", tmp)).ruleFiles).toHaveLength(1);
    await expect(resolveRuleset("../etc", tmp)).rejects.toMatchObject({ code: "BAD_OPTION" });
    await expect(resolveRuleset("nope", tmp)).rejects.toMatchObject({ code: "NOT_FOUND" });
  });

  it("ships a default ruleset that Suricata loads, with the classtypes its rules use", async () => {
    const ruleset = await resolveRuleset("default");
    expect(ruleset.dir).toBe(defaultRulesetDir());
    expect(path.dirname(ruleset.dir)).toBe(bundledRulesetsDir);
    expect(await validateRules(ruleset.ruleFiles, { classificationFile: ruleset.classificationFile })).toEqual({
      valid: true,
      errors: [],
    });
    const classes = parseClassificationConfig(fs.readFileSync(ruleset.classificationFile, "utf8"));
    const text = ruleset.ruleFiles.map((f) => fs.readFileSync(f, "utf8")).join("\n");
    const used = [...text.matchAll(/classtype:([\w-]+);/g)].map((m) => m[1]);
    expect(used.length).toBeGreaterThan(10);
    for (const name of used) expect(classes.byName(name), name).toBeDefined();
  });

  it("reports the lines Suricata rejects", async () => {
    const file = path.join(tmp, "bad.rules");
    fs.writeFileSync(file, 'alert tcp any any -> any any (msg:"typo"; conten:"x"; sid:5; rev:1;)\n');
    const result = await validateRules([file]);
    expect(result.valid).toBe(false);
    expect(result.errors.join("\n")).toContain("unknown rule keyword 'conten'");
  });
});
