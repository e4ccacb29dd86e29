// The feature sets as a run chooses them: names and columns that never clash, values of each column's declared type,
// and several sets computed in one pass, each giving the columns it gives alone.
import { describe, expect, it } from "vitest";
import { cells, runScenario } from "../testing/feature-scenario.js";
import type { ColumnType } from "./feature-group.js";
import { FEATURE_COLUMNS, FeatureSet } from "./feature-set.js";
import { DEFAULT_FEATURE_SETS, FEATURE_SETS, SESSION_KEY } from "./feature-sets.js";
import { tracemill } from "./sets/tracemill.js";

/**
 * Sessions of one packet (each kind several times, so that later rows come from kept text) and of several, both
 * ways, over TCP and UDP, IPv4 and IPv6, many of them live at once.
 */
function mixedPackets(): string {
  const lines: string[] = [];
  for (let i = 0; i < 40; i++) {
    const v6 = i % 3 === 0;
    const client = v6 ? `[2001:db8::${i + 1}]:${40000 + i}` : `10.0.${i}.1:${40000 + i}`;
    const server = v6 ? `[2001:db8:1::${i + 1}]:443` : `192.168.0.${i + 1}:80`;
    const t = (seconds: number) => (i * 0.5 + seconds).toFixed(6);
    if (i % 4 === 0) {
      lines.push(`${t(0)} ${client} > ${server} udp - ${60 + (i % 2) * 40} 20/8`);
    } else if (i % 4 === 1) {
      lines.push(`${t(0)} ${server} > ${client} tcp SA 60 20/40`);
    } else {
      lines.push(`${t(0)} ${client} > ${server} tcp S 60 20/40`);
      lines.push(`${t(0.001)} ${server} > ${client} tcp SA 60 20/40`);
      lines.push(`${t(0.002)} ${client} > ${server} tcp PA ${100 + i} 20/32`);
      lines.push(`${t(0.01)} ${server} > ${client} tcp PUA ${1500 - i} 20/32`);
      if (i % 4 === 3) lines.push(`${t(0.02)} ${client} > ${server} tcp FA 52 20/32`);
    }
  }
  return lines.sort((a, b) => Number(a.split(" ")[0]) - Number(b.split(" ")[0])).join("\n");
}

const PATTERNS: Record<ColumnType, RegExp> = {
  // A whole number; −1 is the one negative value a set writes (a sentinel, as cic's missing window).
  int: /^(-1|\d+)$/,
  real: /^\d+(\.\d+)?$/,
  time: /^\d+(\.\d{1,9})?$/,
  string: /^[^,"\n]+$/,
  list: /^"[^"]*"$/,
};

describe("feature sets", () => {
  it("have distinct plain names and descriptions, and no column name twice across the key and every set", () => {
    const names = FEATURE_SETS.map((set) => set.name);
    expect(new Set([SESSION_KEY.name, ...names]).size).toBe(names.length + 1);
    for (const set of FEATURE_SETS) {
      expect(set.name).toMatch(/^[a-z][a-z0-9-]*$/);
      expect(set.description.length).toBeGreaterThan(10);
      expect(set.groups.length).toBeGreaterThan(0);
    }
    const columns = [SESSION_KEY, ...FEATURE_SETS].flatMap((set) => set.groups.flatMap((group) => group.columns));
    expect(new Set(columns.map((column) => column.name)).size).toBe(columns.length);
  });

  it("default to tracemill, whose row is the session key's 6 columns and its own 44", () => {
    expect(DEFAULT_FEATURE_SETS).toEqual([tracemill]);
    expect(new FeatureSet().columns).toEqual(FEATURE_COLUMNS);
    expect(SESSION_KEY.groups.flatMap((group) => group.columns)).toHaveLength(6);
    expect(tracemill.groups.flatMap((group) => group.columns)).toHaveLength(44);
  });

  it("write every value as its column's declared type says", () => {
    const types = [SESSION_KEY, ...FEATURE_SETS].flatMap((set) =>
      set.groups.flatMap((group) => group.columns.map((column) => column.type)),
    );
    const { rows } = runScenario(mixedPackets(), {}, FEATURE_SETS);
    expect(rows).toHaveLength(40);
    for (const row of rows) {
      const values = cells(row);
      expect(values).toHaveLength(types.length);
      values.forEach((value, i) => {
        expect(value, `column ${i} of ${row}`).toMatch(PATTERNS[types[i]]);
      });
    }
  });

  it("computed together in one pass give each set's columns as it gives them alone, after one session key", () => {
    const alone = runScenario(mixedPackets());
    const twice = runScenario(mixedPackets(), {}, [tracemill, tracemill]);
    const doubled = (row: string) => {
      const values = row.split(",");
      return [...values, ...values.slice(6)].join(",");
    };
    expect(twice.rows).toEqual(alone.rows.map(doubled));
    expect(twice.fullRows).toEqual(alone.fullRows.map(doubled));
    expect(twice.reasons).toEqual(alone.reasons);
  });
});
