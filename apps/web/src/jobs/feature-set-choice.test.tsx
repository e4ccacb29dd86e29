// The Feature sets choice of the session wizards: the server's sets in its order, at least one, and a set's own
// timeouts filled in when it is chosen alone.
import { fireEvent, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import type { FeatureSetInfo } from "@tracemill/contracts";
import { describe, expect, it } from "vitest";
import { choose, mockUploadsEachTest, pcapBytes, renderApp, wizardServer } from "../test-utils.js";

const column = (name: string) => ({ name, type: "real" as const });
/** The server's answer: a set without timeouts of its own, one with both (as cic), one with only an idle timeout. */
const featureSets: FeatureSetInfo[] = [
  {
    name: "tracemill",
    description: "Counts, lengths, gaps and flags per direction",
    columns: ["a", "b", "c", "d"].map(column),
    defaults: {},
  },
  {
    name: "cic",
    description: "CICFlowMeter's flow features",
    columns: ["x", "y", "z"].map(column),
    defaults: { idleTimeout: 120, activeTimeout: 120 },
  },
  {
    name: "quick",
    description: "A set with a short idle timeout",
    columns: [column("q")],
    defaults: { idleTimeout: 15 },
  },
];

mockUploadsEachTest();

const server = () => wizardServer({ featureSets });

/** Step 1 filled in, then Next: the page with the feature sets and the session options. */
async function openSessionStep(route: string, mainLabel: string) {
  renderApp(route);
  await userEvent.type(await screen.findByLabelText("Title"), "Sets");
  await choose(mainLabel, "c.pcap", pcapBytes());
  await userEvent.click(screen.getByRole("button", { name: "Next" }));
  return screen.findByRole("group", { name: "Feature sets" });
}

const box = (name: string) => screen.getByRole("checkbox", { name });
const posted = (calls: ReturnType<typeof server>) =>
  calls.filter((c) => c.method === "POST" && c.path === "/api/jobs").map((c) => c.body as { params: object });

describe("feature set choice", () => {
  it("lists the server's sets in its order and sends the chosen ones in that order, not the clicks'", async () => {
    const calls = server();
    const group = await openSessionStep("/ui/extract", "Capture");
    const boxes = within(group).getAllByRole("checkbox");
    expect(boxes).toHaveLength(3);
    expect(boxes.map((b) => (b as HTMLInputElement).labels?.[0]?.textContent)).toEqual(["tracemill", "cic", "quick"]);
    expect(box("tracemill")).toBeChecked();
    expect(box("cic")).not.toBeChecked();
    expect(box("cic")).toHaveAccessibleDescription("CICFlowMeter's flow features · 3 columns");
    expect(box("quick")).toHaveAccessibleDescription("A set with a short idle timeout · 1 column");

    await userEvent.click(box("quick"));
    await userEvent.click(box("cic"));
    await userEvent.click(screen.getByRole("button", { name: "Create job" }));
    await waitFor(() => expect(posted(calls)).toHaveLength(1));
    // Several sets: none brings its timeouts, the contracts' defaults stay.
    expect(posted(calls)[0].params).toEqual({
      features: ["tracemill", "cic", "quick"],
      idleTimeout: 120,
      activeTimeout: 1800,
      length: "ip",
      format: "csv",
    });
    // The wizard's two readers of the list share one answer.
    expect(calls.filter((c) => c.path === "/api/feature-sets")).toHaveLength(1);
  });

  it.each([
    ["/ui/extract/labeling", "Capture to label"],
    ["/ui/extract/ipts", "Capture"],
    ["/ui/extract/images", "Capture"],
  ])("%s offers the same choice on its session step", async (route, mainLabel) => {
    server();
    const group = await openSessionStep(route, mainLabel);
    expect(within(group).getAllByRole("checkbox")).toHaveLength(3);
    expect(screen.getByText("Advanced parameters")).toBeInTheDocument();
  });

  it("says inline that one set must stay chosen, and refuses to create the job without one", async () => {
    const calls = server();
    const group = await openSessionStep("/ui/extract", "Capture");
    expect(group).not.toHaveTextContent(/at least one/);
    await userEvent.click(box("tracemill"));
    expect(box("tracemill")).not.toBeChecked();
    expect(box("tracemill")).toBeEnabled();
    expect(group).toHaveTextContent(/Choose at least one feature set/);
    await userEvent.click(screen.getByRole("button", { name: "Create job" }));
    expect(screen.getByRole("alert")).toHaveTextContent(/Choose at least one feature set/);
    expect(posted(calls)).toHaveLength(0);

    await userEvent.click(box("cic"));
    expect(group).not.toHaveTextContent(/at least one/);
    await userEvent.click(screen.getByRole("button", { name: "Create job" }));
    await waitFor(() => expect(posted(calls)).toHaveLength(1));
    expect(posted(calls)[0].params).toMatchObject({ features: ["cic"] });
  });

  it("fills in the timeouts of a set chosen alone, back to the defaults after, and never over an edited one", async () => {
    const calls = server();
    await openSessionStep("/ui/extract", "Capture");
    await userEvent.click(screen.getByText("Advanced parameters"));
    const idle = screen.getByLabelText("Idle timeout (s)");
    const active = screen.getByLabelText("Active timeout (s)");
    expect([idle, active].map((i) => (i as HTMLInputElement).valueAsNumber)).toEqual([120, 1800]);
    expect(screen.queryByText(/chosen alone/)).not.toBeInTheDocument();

    // cic alone: its own 120 s active timeout, said under the fields.
    await userEvent.click(box("cic"));
    await userEvent.click(box("tracemill"));
    expect(active).toHaveValue(120);
    expect(idle).toHaveValue(120);
    expect(
      screen.getByText("cic's own timeouts (idle 120 s, active 120 s), as cic uses them when chosen alone."),
    ).toBeInTheDocument();

    // A second set: back to the contracts' defaults, no hint.
    await userEvent.click(box("quick"));
    expect(active).toHaveValue(1800);
    expect(screen.queryByText(/chosen alone/)).not.toBeInTheDocument();

    // quick alone brings only an idle timeout.
    await userEvent.click(box("cic"));
    expect(idle).toHaveValue(15);
    expect(active).toHaveValue(1800);
    expect(
      screen.getByText("quick's own timeout (idle 15 s), as quick uses it when chosen alone."),
    ).toBeInTheDocument();

    // An idle timeout set by hand stays through later choices; the active one still follows them.
    fireEvent.change(idle, { target: { value: "45" } });
    expect(screen.getByText("quick chosen alone uses idle 15 s; the values you set are kept.")).toBeInTheDocument();
    await userEvent.click(box("cic"));
    await userEvent.click(box("quick"));
    expect(idle).toHaveValue(45);
    expect(active).toHaveValue(120);
    await userEvent.click(screen.getByRole("button", { name: "Create job" }));
    await waitFor(() => expect(posted(calls)).toHaveLength(1));
    expect(posted(calls)[0].params).toEqual({
      features: ["cic"],
      idleTimeout: 45,
      activeTimeout: 120,
      length: "ip",
      format: "csv",
    });
  });
});
