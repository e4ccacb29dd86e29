// The timeline of a merge (with its insertion point) and of a sanitize (packets and alerts), from the job's summary.
import { render, screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { makeJob } from "../test-utils.js";
import { JobTimeline } from "./job-timeline.js";

const timeline = (series: Record<string, number[]>) => ({ start: 1_700_000_000, binSeconds: 10, series });

describe("JobTimeline", () => {
  it("draws a merge's background and attacks with the insertion point", () => {
    const job = makeJob({
      capability: "merge",
      summary: {
        placement: { firstAttackPacketAt: "2023-11-14T22:13:40.000000000Z" },
        timeline: timeline({ background: [3, 3, 3], attacks: [0, 0, 5] }),
      },
    });
    render(<JobTimeline job={job} />);
    expect(screen.getByRole("img", { name: "Packets over time" })).toBeTruthy();
    expect(screen.getByText("attacks inserted")).toBeTruthy();
    expect(screen.getAllByTestId("timeline-column")).toHaveLength(4);
  });

  it("draws a sanitize's packets and its alerts as two charts", () => {
    const job = makeJob({
      capability: "sanitize",
      summary: { timeline: timeline({ clean: [4, 1], attacks: [0, 2], alerts: [0, 7] }) },
    });
    render(<JobTimeline job={job} />);
    expect(screen.getByRole("img", { name: "Packets over time" })).toBeTruthy();
    expect(screen.getByRole("img", { name: "Alerts over time" })).toBeTruthy();
  });

  it("draws nothing for a summary without a timeline (a job from before timelines)", () => {
    const { container } = render(<JobTimeline job={makeJob({ capability: "merge", summary: { packets: 3 } })} />);
    expect(container.innerHTML).toBe("");
  });
});
