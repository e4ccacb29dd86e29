// A job made a draft to run again: inputs as references the viewer may give, the rest left to choose with a notice.
import type { JobInput } from "@tracemill/contracts";
import { describe, expect, it } from "vitest";
import { makeJob } from "../test-utils.js";
import { toRequest } from "./draft.js";
import { draftFromJob } from "./draft-from-job.js";

const input = (role: JobInput["role"], id: string, name: string, extra: Partial<JobInput> = {}): JobInput => ({
  id,
  role,
  name,
  size: 1000,
  sha256: "0".repeat(64),
  format: "pcap",
  compression: null,
  createdAt: "",
  ...extra,
});

const mergeOutput = { jobId: "m1", output: "merged.pcap", title: "Mix", capability: "merge" as const };

describe("draftFromJob", () => {
  it("takes an owner's label job on a merge's output back as the same references and parameters", () => {
    const job = makeJob({
      title: "Labels of the mix",
      description: "first try",
      public: true,
      capability: "label",
      params: { mode: "binary", features: ["tracemill"], idleTimeout: 60, activeTimeout: 1800, length: "ip" },
      inputs: [
        input("capture", "f-copy", "merged.pcap", { from: mergeOutput }),
        input("provenance", "f-prov", "provenance.json", {
          format: "provenance",
          from: { ...mergeOutput, output: "provenance.json" },
        }),
      ],
    });
    const { draft, notices } = draftFromJob(job);
    expect(notices).toEqual([]);
    expect(draft).toMatchObject({ title: "Labels of the mix (again)", description: "first try", public: true });
    expect(draft.inputs).toEqual({
      capture: {
        ref: { jobId: "m1", output: "merged.pcap" },
        name: "Mix / merged.pcap",
        size: 1000,
        fromCapability: "merge",
      },
    });
    // Only the parameter that differs from the contracts' defaults counts as set by hand (120 s is the default).
    expect(draft.edited).toEqual(["idleTimeout"]);
    expect(toRequest("label", draft)).toEqual({
      title: "Labels of the mix (again)",
      description: "first try",
      public: true,
      capability: "label",
      params: {
        mode: "binary",
        features: ["tracemill"],
        idleTimeout: 60,
        activeTimeout: 1800,
        length: "ip",
        format: "csv",
      },
      inputs: { capture: { jobId: "m1", output: "merged.pcap" } },
    });
  });

  it("reuses an owner's uploads by id, library files by path, and every capture of a job over several", () => {
    const job = makeJob({
      capability: "extract",
      inputs: [
        input("capture", "u1", "monday.pcap"),
        input("capture", "lib-row", "tuesday.pcap", { library: { name: "lab", path: "week/tuesday.pcap" } }),
        input("capture", "u3", "wednesday.pcap"),
      ],
    });
    const { draft, notices } = draftFromJob(job);
    expect(notices).toEqual([]);
    expect(toRequest("extract", draft).inputs).toEqual({
      capture: [{ fileId: "u1" }, { library: "lab", path: "week/tuesday.pcap" }, { fileId: "u3" }],
    });
  });

  it("leaves another user's uploads to choose, keeps outputs of jobs they may read, and makes the copy private", () => {
    const job = makeJob({
      title: "Their merge",
      capability: "merge",
      isOwner: false,
      public: true,
      owner: { userName: "alice" },
      params: { sequential: false, map: [], at: 5 },
      inputs: [
        input("background", "alice-upload", "web.pcap"),
        input("attacks", "alice-copy", "attacks.pcap", {
          from: { jobId: "s1", output: "attacks.pcap", title: "Sanitized", capability: "sanitize" },
        }),
      ],
    });
    const { draft, notices } = draftFromJob(job);
    expect(draft.public).toBe(false);
    expect(draft.inputs.background).toBeUndefined();
    expect(draft.inputs.attacks?.ref).toEqual({ jobId: "s1", output: "attacks.pcap" });
    expect(notices).toEqual([
      "web.pcap (background) is alice's file, which only they can use: choose a file of yours in its place.",
    ]);
    expect(JSON.stringify(draft)).not.toContain("alice-upload");
    expect(draft.params).toMatchObject({ at: 5, sequential: false, map: [] });
  });

  it("puts a dataset's attack captures in its lists, and names the dataset after the new title unless named", () => {
    const dataset = (name: string) =>
      makeJob({
        title: "Week one",
        capability: "dataset",
        params: { name, features: ["tracemill"] },
        inputs: [
          input("capture", "c1", "a.pcap"),
          input("capture", "c2", "b.pcap"),
          input("attacks", "x1", "x.pcap"),
          input("attacks", "x2", "y.pcap"),
        ],
      });
    const { draft } = draftFromJob(dataset("Week one"));
    expect(draft.params.name).toBeUndefined();
    expect(draftFromJob(dataset("Named by hand")).draft.params.name).toBe("Named by hand");
    expect(toRequest("dataset", draft).inputs).toEqual({
      capture: [{ fileId: "c1" }, { fileId: "c2" }],
      attacks: [{ fileId: "x1" }, { fileId: "x2" }],
    });
  });

  it("keeps the new title within the 200 characters a title may have", () => {
    const { draft } = draftFromJob(makeJob({ title: "t".repeat(200) }));
    expect(draft.title).toHaveLength(200);
    expect(draft.title.endsWith("t (again)")).toBe(true);
  });
});
