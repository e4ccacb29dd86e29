// Rulesets: listing, resolving by name, validating rules with `suricata -T`, the bundled default ruleset, and a
// server's rulesets directory (add, remove, figures).
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseClassificationConfig } from "@tracemill/core";
import { afterAll, describe, expect, it } from "vitest";
import { addRuleset, countRules, removeRuleset, rulesetFigures } from "./ruleset-store.js";
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

  it("resolves a name in several directories, the first that has it winning", async () => {
    const other = path.join(tmp, "other");
    fs.mkdirSync(path.join(other, "b-own"), { recursive: true });
    fs.writeFileSync(path.join(other, "b-own/y.rules"), "");
    fs.mkdirSync(path.join(other, "only-here"));
    fs.writeFileSync(path.join(other, "only-here/z.rules"), "");
    expect((await resolveRuleset("b-own", [tmp, other])).dir).toBe(path.join(tmp, "b-own"));
    expect((await resolveRuleset("only-here", [tmp, other])).dir).toBe(path.join(other, "only-here"));
    await expect(resolveRuleset("default", [bundledRulesetsDir, other])).resolves.toMatchObject({ name: "default" });
    for (const bad of ["..", ".", ".hidden", "-x", "a/b", "x".repeat(65)]) {
      await expect(resolveRuleset(bad, [tmp, other]), bad).rejects.toMatchObject({ code: "BAD_OPTION" });
    }
  });

  it("counts active rules only, a rule continued over lines once", () => {
    const text = [
      "# a comment",
      '#alert tcp any any -> any any (msg:"off"; sid:1;)',
      'alert tcp any any -> any any (msg:"one"; \\',
      "  alert tcp any any -> any any (sid:2;)", // the continued rule's second line, not a rule of its own
      'drop udp any any -> any any (msg:"two"; sid:3;)',
      "",
    ].join("\n");
    expect(countRules(text)).toBe(2);
  });
});

describe("a server's rulesets directory", () => {
  const store = path.join(tmp, "store");
  const sources = path.join(tmp, "sources");
  fs.mkdirSync(sources);
  const good = 'alert tcp any any -> any 80 (msg:"to web"; flags:S,12; classtype:attempted-recon; sid:7; rev:1;)\n';
  const typo = 'alert tcp any any -> any any (msg:"typo"; conten:"x"; sid:5; rev:1;)\n';

  it("adds rules Suricata loads, with their classification, and lists them with their figures", async () => {
    fs.writeFileSync(path.join(sources, "web.rules"), good);
    fs.copyFileSync(suricataClassificationFile, path.join(sources, "mine.config"));
    const added = await addRuleset("lab-1", [path.join(sources, "web.rules")], store, {
      classificationFile: path.join(sources, "mine.config"),
    });
    expect(added.skipped).toEqual([]);
    expect(fs.readdirSync(store)).toEqual(["lab-1"]);
    expect(fs.readdirSync(path.join(store, "lab-1")).sort()).toEqual(["classification.config", "web.rules"]);
    const [listed] = await listRulesets(store);
    expect(listed.name).toBe("lab-1");
    expect(await rulesetFigures(listed)).toEqual({ ruleFiles: 1, rules: 1, ownClassification: true });
    // Counts are kept per file while it is unchanged; a changed file is counted again.
    fs.appendFileSync(listed.ruleFiles[0], good.replace("sid:7", "sid:8"));
    expect(await rulesetFigures(listed)).toMatchObject({ rules: 2 });
    expect(await rulesetFigures(await resolveRuleset("default"))).toMatchObject({ ownClassification: true });
  });

  it("takes a directory's rules files and classification.config, skipping rules Suricata rejects", async () => {
    const dir = path.join(sources, "et");
    fs.mkdirSync(dir);
    fs.writeFileSync(path.join(dir, "a.rules"), good);
    fs.writeFileSync(path.join(dir, "b.rules"), typo);
    fs.copyFileSync(suricataClassificationFile, path.join(dir, "classification.config"));
    const added = await addRuleset("et", [dir], store);
    expect(added.skipped).toEqual(["b.rules line 1: unknown rule keyword 'conten'."]);
    expect(added.ruleset.ruleFiles.map((f) => path.basename(f))).toEqual(["a.rules", "b.rules"]);
    expect(added.ruleset.classificationFile).toBe(path.join(store, "et/classification.config"));
  });

  it("refuses rules of which none loads, with Suricata's error lines, and leaves nothing behind", async () => {
    fs.writeFileSync(path.join(sources, "typo.rules"), typo);
    const attempt = addRuleset("broken", [path.join(sources, "typo.rules")], store);
    await expect(attempt).rejects.toMatchObject({ code: "BAD_INPUT" });
    await expect(attempt).rejects.toThrow("unknown rule keyword 'conten'");
    fs.writeFileSync(path.join(sources, "empty.rules"), "# nothing\n");
    await expect(addRuleset("empty", [path.join(sources, "empty.rules")], store)).rejects.toThrow("hold no rule");
    expect(fs.readdirSync(store).sort()).toEqual(["et", "lab-1"]);
  });

  it("keeps names unique and inside the directory", async () => {
    const rules = [path.join(sources, "web.rules")];
    await expect(addRuleset("default", rules, store)).rejects.toThrow("bundled ruleset");
    await expect(addRuleset("lab-1", rules, store)).rejects.toThrow("already exists");
    await expect(addRuleset("../escape", rules, store)).rejects.toMatchObject({ code: "BAD_OPTION" });
    await expect(addRuleset("x", [path.join(sources, "mine.config")], store)).rejects.toThrow("not a *.rules file");
    await expect(addRuleset("x", [...rules, ...rules], store)).rejects.toThrow("two rules files are called web.rules");
  });

  it("removes added rulesets but never bundled ones", async () => {
    await removeRuleset("lab-1", store);
    expect(fs.readdirSync(store)).toEqual(["et"]);
    await expect(removeRuleset("lab-1", store)).rejects.toMatchObject({ code: "NOT_FOUND" });
    await expect(removeRuleset("default", store)).rejects.toThrow("cannot be removed");
    expect(fs.existsSync(defaultRulesetDir())).toBe(true);
  });
});
