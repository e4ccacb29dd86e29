// The timeline chart: stacked columns in proportion to the counts, the bin width in words, marks and the table.
import { render, screen, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { binWidthText, TimelineChart } from "./timeline-chart.js";

const timeline = {
  start: 1_700_000_000,
  binSeconds: 30,
  series: { background: [4, 0, 2, 8], attacks: [0, 0, 6, 0] },
};

describe("TimelineChart", () => {
  it("stacks each bin's series, the tallest bin reaching the top", () => {
    render(<TimelineChart title="Packets over time" timeline={timeline} stacked={["background", "attacks"]} />);
    const columns = screen.getAllByTestId("timeline-column");
    // Empty counts draw nothing: 4, 2, 6 and 8 do.
    expect(columns.map((c) => c.querySelector("title")?.textContent)).toEqual([
      "2023-11-14T22:13:20Z: background 4",
      "2023-11-14T22:14:20Z: background 2",
      "2023-11-14T22:14:20Z: attacks 6",
      "2023-11-14T22:14:50Z: background 8",
    ]);
    const heights = columns.map((c) => Number(c.getAttribute("height")));
    // Bins 2 (2 + 6) and 3 (8) are both the maximum, 8: each as tall as the plot.
    expect(heights[1] + heights[2]).toBeCloseTo(heights[3], 6);
    expect(heights[0]).toBeCloseTo(heights[3] / 2, 6);
    expect(screen.getByText(/one column per 30 s/)).toBeTruthy();
  });

  it("lists the non-empty bins in a table and draws the marks", () => {
    render(
      <TimelineChart
        title="Merge"
        timeline={timeline}
        stacked={["background", "attacks"]}
        marks={[{ label: "attacks inserted", at: 1_700_000_060 }]}
      />,
    );
    const rows = within(screen.getByRole("table")).getAllByRole("row");
    expect(rows.map((r) => r.textContent)).toEqual([
      "Frombackgroundattacks",
      "2023-11-14T22:13:20Z40",
      "2023-11-14T22:14:20Z26",
      "2023-11-14T22:14:50Z80",
    ]);
    expect(screen.getByText("attacks inserted")).toBeTruthy();
  });

  it("says a bin's width in the unit that reads best", () => {
    expect(binWidthText(0.0042)).toBe("4.2 ms");
    expect(binWidthText(90)).toBe("90 s");
    expect(binWidthText(600)).toBe("10 min");
    expect(binWidthText(3 * 86_400)).toBe("72 h");
  });
});
