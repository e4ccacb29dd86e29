// The job lists' query as the server reads it: defaults, the order following the sort, and messages naming each
// wrong parameter.
import { describe, expect, it } from "vitest";
import { capabilitiesMatching, parseJobListQuery } from "./job-list.js";

describe("parseJobListQuery", () => {
  it("fills in the newest 50 first and leaves an empty search out", () => {
    expect(parseJobListQuery({})).toEqual({ query: { sort: "created", order: "desc", limit: 50, offset: 0 } });
    expect(parseJobListQuery({ q: "   " })).toEqual({
      query: { sort: "created", order: "desc", limit: 50, offset: 0 },
    });
  });

  it("reads numbers from the query string and orders words A to Z, quantities largest first", () => {
    expect(parseJobListQuery({ q: " web ", status: "warning", sort: "title", limit: "10", offset: "20" })).toEqual({
      query: { q: "web", status: "warning", sort: "title", order: "asc", limit: 10, offset: 20 },
    });
    expect(parseJobListQuery({ sort: "size" })).toMatchObject({ query: { order: "desc" } });
    expect(parseJobListQuery({ sort: "size", order: "asc" })).toMatchObject({ query: { order: "asc" } });
  });

  it("names every wrong parameter and says why", () => {
    const answer = parseJobListQuery({ limit: "500", offset: "-1", sort: "colour", capability: "teleport" });
    expect("messages" in answer && answer.messages).toEqual([
      "Invalid query parameter capability: Invalid option: expected one of " +
        '"extract"|"label"|"ipt"|"images"|"sanitize"|"merge"|"dataset"',
      'Invalid query parameter sort: Invalid option: expected one of "title"|"capability"|"status"|"sessions"|"size"|"created"|"runtime"',
      "Invalid query parameter limit: Too big: expected number to be <=200",
      "Invalid query parameter offset: Too small: expected number to be >=0",
    ]);
    expect(parseJobListQuery({ limit: "ten" })).toEqual({
      messages: ["Invalid query parameter limit: Invalid input: expected number, received NaN"],
    });
    expect(parseJobListQuery({ limit: "0" })).toEqual({
      messages: ["Invalid query parameter limit: Too small: expected number to be >=1"],
    });
    expect(parseJobListQuery({ q: ["a", "b"] })).toEqual({
      messages: ["Invalid query parameter q: Invalid input: expected string, received array"],
    });
    expect(parseJobListQuery({ sortBy: "title" })).toEqual({
      messages: [
        "Unknown query parameter sortBy (the parameters are q, capability, status, sort, order, limit, offset)",
      ],
    });
  });
});

describe("capabilitiesMatching", () => {
  it("finds capabilities by id or by name, case aside", () => {
    expect(capabilitiesMatching("LABEL")).toEqual(["label"]);
    expect(capabilitiesMatching("traffic")).toEqual(["label", "sanitize", "merge"]);
    expect(capabilitiesMatching("ipt")).toEqual(["ipt"]);
    expect(capabilitiesMatching("nothing like it")).toEqual([]);
  });
});
