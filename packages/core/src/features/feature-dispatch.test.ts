// The generated dispatch (feature-dispatch.generated.ts) is rendered here from the feature sets and must be the file
// as committed. After changing a set or a group's slots or update, write it anew:
//   npx vitest run packages/core/src/features/feature-dispatch.test.ts -u
import { describe, expect, it } from "vitest";
import { DISPATCH } from "./feature-dispatch.generated.js";
import type { FeatureGroup, FeatureSetDefinition } from "./feature-group.js";
import { FeatureSet } from "./feature-set.js";
import { FEATURE_SETS, OPTION_SETS, SESSION_KEY } from "./feature-sets.js";
import { tracemill } from "./sets/tracemill.js";

const camel = (name: string) => name.replace(/-(\w)/g, (_, letter: string) => letter.toUpperCase());
const plus = (at: string, offset: number) => (offset === 0 ? at : `${at} + ${offset}`);

/** `text` as comment lines of at most 120 characters, broken at spaces. */
function comment(text: string): string[] {
  const lines = [""];
  for (const word of text.split(" ")) {
    const line = lines[lines.length - 1];
    if (line !== "" && line.length + word.length + 4 > 117) lines.push(word);
    else lines[lines.length - 1] = line === "" ? word : `${line} ${word}`;
  }
  return lines.length === 1 ? [`/** ${lines[0]} */`] : ["/**", ...lines.map((line) => ` * ${line}`), " */"];
}

/** The dispatch of each set: every group called at its own call site, its slots' offsets written in. */
function renderDispatch(sets: readonly FeatureSetDefinition[]): string {
  const groups = [...new Set(sets.flatMap((set) => set.groups))].sort((a, b) => (a.name < b.name ? -1 : 1));
  const lines = [
    "// Generated from the feature sets (feature-sets.ts) by feature-dispatch.test.ts: do not edit. After changing a set",
    "// or a group's slots or update: npx vitest run packages/core/src/features/feature-dispatch.test.ts -u",
    'import type { SetDispatch } from "./feature-group.js";',
    ...groups.map((group) => `import { ${camel(group.name)} } from "./groups/${group.name}.js";`),
  ];
  for (const set of sets) {
    const sideAt: number[] = [];
    const flowAt: number[] = [];
    let side = 0;
    let flow = 0;
    for (const group of set.groups) {
      sideAt.push(side);
      flowAt.push(flow);
      side += group.sideSlots;
      flow += group.flowSlots;
    }
    // A group's slots of each kind are named from the set's block (`at`: forward, backward, session-wide), or
    // `side` (the packet's direction) in update; a group without slots of a kind gets the bare name, less bytecode
    // in V8's inlining budget.
    // A group with a store (FeatureGroup.store) gets its own from the set's `stores`, by its rank among them.
    const storeOf = (group: FeatureGroup) =>
      group.store === undefined ? "" : `, stores![${set.groups.filter((g) => g.store !== undefined).indexOf(group)}]`;
    const call = (group: FeatureGroup, i: number, method: "update" | "finish") => {
      const sides = (from: string, offset: number) => (group.sideSlots === 0 ? from : plus(from, offset + sideAt[i]));
      const flows = group.flowSlots === 0 ? (method === "update" ? "flow" : "at") : plus("flow", flowAt[i]);
      return method === "update"
        ? `    ${camel(group.name)}.update!(s, ${sides("side", 0)}, ${flows}, packet${storeOf(group)});`
        : `    ${camel(group.name)}.finish(s, ${sides("at", 0)}, ${sides("at", side)}, ${flows}, session, row${storeOf(group)});`;
    };
    const updating = set.groups.some((group) => group.update !== undefined);
    const stores = set.groups.some((group) => group.store !== undefined) ? ", stores" : "";
    lines.push(
      "",
      ...comment(`${set.name}: ${set.groups.map((group) => group.name).join(", ")}.`),
      `export const ${camel(set.name)}Dispatch: SetDispatch = {`,
      `  sideSlots: ${side},`,
      `  flowSlots: ${flow},`,
      ...(updating
        ? [
            `  update(s, at, packet${stores}) {`,
            `    const side = packet.forward ? at : ${plus("at", side)};`,
            `    const flow = ${plus("at", 2 * side)};`,
            ...set.groups.flatMap((group, i) => (group.update === undefined ? [] : [call(group, i, "update")])),
            "  },",
          ]
        : []),
      `  finish(s, at, session, row${stores}) {`,
      ...(set.groups.some((group) => group.flowSlots > 0) ? [`    const flow = ${plus("at", 2 * side)};`] : []),
      ...set.groups.map((group, i) => call(group, i, "finish")),
      "  },",
      "};",
    );
  }
  lines.push(
    "",
    "/** Each set's dispatch, by the set's name. */",
    "export const DISPATCH: Readonly<Record<string, SetDispatch>> = {",
    ...sets.map((set) => `  ${/^\w+$/.test(set.name) ? set.name : `"${set.name}"`}: ${camel(set.name)}Dispatch,`),
    "};",
    "",
  );
  return lines.join("\n");
}

const SETS = [SESSION_KEY, ...FEATURE_SETS, ...OPTION_SETS];

describe("the feature dispatch", () => {
  it("is the one the feature sets give", async () => {
    await expect(renderDispatch(SETS)).toMatchFileSnapshot("./feature-dispatch.generated.ts");
  });

  it("has every set by its name, with the slots its groups declare", () => {
    expect(Object.keys(DISPATCH)).toEqual(SETS.map((set) => set.name));
    for (const set of SETS) {
      expect(DISPATCH[set.name].sideSlots).toBe(set.groups.reduce((sum, group) => sum + group.sideSlots, 0));
      expect(DISPATCH[set.name].flowSlots).toBe(set.groups.reduce((sum, group) => sum + group.flowSlots, 0));
    }
  });

  it("imports each group from groups/<name>.ts, where it is exported under its name in camelCase", async () => {
    for (const group of SETS.flatMap((set) => set.groups)) {
      const module = (await import(`./groups/${group.name}.ts`)) as Record<string, unknown>;
      expect(module[camel(group.name)], group.name).toBe(group);
    }
  });

  it("is checked by the feature set, which refuses a set with no dispatch or with other slots", () => {
    expect(() => new FeatureSet([{ name: "none", description: "no such set", groups: [] }])).toThrow(
      'the generated feature dispatch does not match the set "none": regenerate it',
    );
    expect(() => new FeatureSet([{ ...tracemill, groups: tracemill.groups.slice(1, 3) }])).toThrow(
      'does not match the set "tracemill"',
    );
  });
});
