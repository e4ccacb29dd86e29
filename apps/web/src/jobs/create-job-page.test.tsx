import { fireEvent, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import { api } from "../api/client.js";
import { choose, createdJob, makeJob, mockUploadsEachTest, pcapBytes, renderApp, wizardServer } from "../test-utils.js";

const pcapHeader = pcapBytes();
const u2Header = new Uint8Array([0, 0, 0, 104, 0, 0, 0, 60, 0, 0, 0, 0, 0, 0, 0, 0]);

mockUploadsEachTest();

function server() {
  return wizardServer({
    routes: {
      "GET /api/rulesets": () => ({
        body: [
          { id: "default", name: "Installed rules" },
          { id: "et-open", name: "ET Open" },
        ],
      }),
    },
  });
}

async function stepOne(title: string, mainLabel: string) {
  await userEvent.type(await screen.findByLabelText("Title"), title);
  await userEvent.type(screen.getByLabelText("Description"), "for a test");
  await choose(mainLabel, "background.pcap", pcapHeader);
  await userEvent.click(screen.getByRole("button", { name: "Next" }));
}

describe("job creation", () => {
  it("asks for the title and the file before Next, and refuses a file that is not a capture", async () => {
    server();
    renderApp("/ui/extract");
    await userEvent.click(await screen.findByRole("button", { name: "Next" }));
    expect(screen.getByRole("alert")).toHaveTextContent("Title is required");
    await userEvent.type(screen.getByLabelText("Title"), "My extraction");
    await userEvent.click(screen.getByRole("button", { name: "Next" }));
    expect(screen.getByRole("alert")).toHaveTextContent("Choose the capture");
    await userEvent.upload(
      screen.getByLabelText("Capture: choose a file"),
      new File(["plain text, no packets"], "x.pcap"),
    );
    expect(await screen.findByText(/x\.pcap: the content does not look like a pcap/)).toBeInTheDocument();
    expect(api.upload).not.toHaveBeenCalled();
    await userEvent.upload(screen.getByLabelText("Capture: choose a file"), new File(["a"], "notes.txt"), {
      applyAccept: false,
    });
    expect(await screen.findByText(/notes\.txt: not a capture file/)).toBeInTheDocument();
  });

  it("creates a feature extraction job with the contracts' defaults, shown folded away", async () => {
    const calls = server();
    renderApp("/ui/extract");
    await stepOne("Features", "Capture");
    expect(screen.getByText("Advanced parameters").closest("details")).not.toHaveAttribute("open");
    await userEvent.click(screen.getByText("Advanced parameters"));
    expect(screen.getByLabelText("Idle timeout (s)")).toHaveValue(120);
    expect(screen.getByLabelText("Active timeout (s)")).toHaveValue(1800);
    fireEvent.change(screen.getByLabelText("Idle timeout (s)"), { target: { value: "60" } });
    await userEvent.click(screen.getByRole("button", { name: "Create job" }));
    await waitFor(() => expect(screen.getByTestId("location")).toHaveTextContent("/ui/dataSets"));
    expect(createdJob(calls)).toEqual({
      title: "Features",
      description: "for a test",
      public: false,
      capability: "extract",
      params: { features: ["tracemill"], idleTimeout: 60, activeTimeout: 1800, length: "ip", format: "csv" },
      inputs: { capture: { fileId: "file-1" } },
    });
  });

  it("takes further captures for one job over several, in order, any of them removable", async () => {
    const calls = server();
    renderApp("/ui/extract");
    await userEvent.type(await screen.findByLabelText("Title"), "Week");
    expect(screen.queryByLabelText(/Another capture.*: choose a file/)).toBeNull();
    await choose("Capture", "monday.pcap", pcapBytes(1));
    await choose("Another capture (optional: one job over several)", "tuesday.pcap", pcapBytes(2));
    await choose("Another capture", "wednesday.pcap", pcapBytes(3));
    await choose("Another capture", "thursday.pcap", pcapBytes(4));
    const further = screen.getByRole("list", { name: "Further captures" });
    expect(
      within(further)
        .getAllByRole("listitem")
        .map((item) => item.textContent?.split(" (")[0]),
    ).toEqual(["tuesday.pcap", "wednesday.pcap", "thursday.pcap"]);
    await userEvent.click(screen.getByRole("button", { name: "Remove wednesday.pcap" }));
    await userEvent.click(screen.getByRole("button", { name: "Next" }));
    await userEvent.click(screen.getByRole("button", { name: "Create job" }));
    await waitFor(() => expect(createdJob(calls)).toBeDefined());
    expect((createdJob(calls) as { inputs: unknown }).inputs).toEqual({
      capture: [{ fileId: "file-1" }, { fileId: "file-2" }, { fileId: "file-3" }],
    });
    // The capture taken out again was never sent.
    expect(vi.mocked(api.upload).mock.calls.map(([file]) => file.name)).toEqual([
      "monday.pcap",
      "tuesday.pcap",
      "thursday.pcap",
    ]);
  });

  it("offers no further captures where a job takes one (sanitization)", async () => {
    server();
    renderApp("/ui/clear");
    await userEvent.type(await screen.findByLabelText("Title"), "One");
    await choose("Capture to sanitize", "monday.pcap", pcapHeader);
    expect(screen.queryByText(/Another capture/)).toBeNull();
  });

  it("feature extraction offers Parquet as the output format, each format described, CSV first chosen", async () => {
    const calls = server();
    renderApp("/ui/extract");
    await stepOne("Typed", "Capture");
    const formats = screen.getByRole("group", { name: "Output format" });
    const csv = within(formats).getByRole("radio", { name: "CSV" });
    const parquet = within(formats).getByRole("radio", { name: "Parquet" });
    expect(csv).toBeChecked();
    expect(parquet).not.toBeChecked();
    expect(parquet).toHaveAccessibleDescription(/Typed columns, compressed.*pandas, polars or DuckDB/);
    await userEvent.click(parquet);
    expect(parquet).toBeChecked();
    expect(csv).not.toBeChecked();
    await userEvent.click(screen.getByRole("button", { name: "Create job" }));
    await waitFor(() => expect(createdJob(calls)).toBeDefined());
    expect(createdJob(calls)).toMatchObject({ capability: "extract", params: { format: "parquet", length: "ip" } });
  });

  it("aggregation asks for the attack capture and the insertion point on step 2", async () => {
    const calls = server();
    renderApp("/ui/merge");
    await userEvent.click(await screen.findByRole("switch", { name: /Public/ }));
    await stepOne("Mix", "Background capture (attack-free)");
    await userEvent.click(screen.getByRole("button", { name: "Create job" }));
    expect(screen.getByRole("alert")).toHaveTextContent("Choose the attack capture");
    await choose("Attack capture", "attack.pcap", pcapBytes(2));
    fireEvent.change(screen.getByLabelText(/Insertion point/), { target: { value: "2.5" } });
    await userEvent.click(screen.getByRole("button", { name: "Create job" }));
    await waitFor(() => expect(createdJob(calls)).toBeDefined());
    expect(createdJob(calls)).toMatchObject({
      public: true,
      capability: "merge",
      params: { at: 2.5, sequential: false },
      inputs: { background: { fileId: "file-1" }, attacks: { fileId: "file-2" } },
    });
  });

  it("labelling sends binary with an attack capture, or multi-class with alerts", async () => {
    const calls = server();
    renderApp("/ui/extract/labeling");
    await stepOne("Labels", "Capture to label");
    expect(screen.getByLabelText(/^Binary/)).toBeChecked();
    await userEvent.click(screen.getByLabelText(/^Multi-class/));
    await userEvent.click(screen.getByRole("button", { name: "Create job" }));
    expect(screen.getByRole("alert")).toHaveTextContent("Choose the alert file");
    await choose("Alerts (unified2 or EVE file)", "snort.u2", u2Header);
    await userEvent.click(screen.getByRole("button", { name: "Create job" }));
    await waitFor(() => expect(createdJob(calls)).toBeDefined());
    expect(createdJob(calls)).toMatchObject({
      capability: "label",
      params: { mode: "multiclass" },
      inputs: { capture: { fileId: "file-1" }, alerts: { fileId: "file-2" } },
    });
  });

  it("binary labelling of an aggregation job's output leaves the attack capture optional", async () => {
    const calls = wizardServer({
      jobs: [
        makeJob({
          id: "m1",
          title: "Mix",
          capability: "merge",
          outputs: [{ name: "merged.pcap", kind: "merged", size: 9 }],
        }),
        makeJob({
          id: "s1",
          title: "Clean",
          capability: "sanitize",
          outputs: [{ name: "clean.pcap", kind: "capture", size: 5 }],
        }),
      ],
      createdId: "job-3",
    });
    async function pickCapture(title: string, option: string) {
      await userEvent.type(await screen.findByLabelText("Title"), title);
      await userEvent.selectOptions(await screen.findByLabelText("Or use an output of an earlier job"), option);
      await userEvent.click(screen.getByRole("button", { name: "Next" }));
    }
    // Any other capture still needs its attack capture.
    const view = renderApp("/ui/extract/labeling");
    await pickCapture("Other", "Clean / clean.pcap");
    expect(screen.queryByText(/^Optional:/)).not.toBeInTheDocument();
    await userEvent.click(screen.getByRole("button", { name: "Create job" }));
    expect(screen.getByRole("alert")).toHaveTextContent("Choose the attack capture");
    view.unmount();

    renderApp("/ui/extract/labeling");
    await pickCapture("Mixed labels", "Mix / merged.pcap");
    expect(screen.getByText(/^Optional: this capture is an aggregation job's output/)).toBeInTheDocument();
    await userEvent.click(screen.getByRole("button", { name: "Create job" }));
    await waitFor(() => expect(createdJob(calls)).toBeDefined());
    expect(createdJob(calls)).toMatchObject({
      capability: "label",
      params: { mode: "binary" },
      inputs: { capture: { jobId: "m1", output: "merged.pcap" } },
    });
    expect((createdJob(calls) as { inputs: object }).inputs).not.toHaveProperty("attacks");
  });

  it("images ask for the sessions per image; sanitization offers the server's rulesets", async () => {
    const calls = server();
    const view = renderApp("/ui/extract/images");
    await stepOne("Pictures", "Capture");
    expect(screen.getByLabelText("Sessions (flows) per image")).toHaveValue(16);
    fireEvent.change(screen.getByLabelText("Sessions (flows) per image"), { target: { value: "" } });
    await userEvent.click(screen.getByRole("button", { name: "Create job" }));
    expect(screen.getByRole("alert")).toHaveTextContent("Set the number of sessions per image");
    fireEvent.change(screen.getByLabelText("Sessions (flows) per image"), { target: { value: "8" } });
    await userEvent.click(screen.getByRole("button", { name: "Create job" }));
    await waitFor(() => expect(createdJob(calls)).toMatchObject({ params: { flowsPerImage: 8 } }));
    view.unmount();

    const calls2 = server();
    renderApp("/ui/clear");
    await stepOne("Clean", "Capture to sanitize");
    await userEvent.selectOptions(await screen.findByLabelText("Ruleset"), "et-open");
    await userEvent.click(screen.getByRole("button", { name: "Create job" }));
    await waitFor(() =>
      expect(createdJob(calls2)).toMatchObject({
        capability: "sanitize",
        params: { ruleset: "et-open", minSeverity: 3 },
      }),
    );
  });

  it("sanitization's severity threshold reads as the range of priorities kept, 1 the most severe", async () => {
    const calls = server();
    renderApp("/ui/clear");
    await stepOne("Clean", "Capture to sanitize");
    await userEvent.click(screen.getByText("Advanced parameters"));
    const threshold = screen.getByLabelText("Keep alerts of priority 1 to N (1 = most severe)");
    expect(threshold).toHaveAttribute("placeholder", "3");
    expect(threshold).toHaveAccessibleDescription(/priority 1 is the most severe.*a larger N keeps more alerts/);
    expect(screen.queryByText(/Minimum alert severity/)).toBeNull();
    fireEvent.change(threshold, { target: { value: "1" } });
    await userEvent.click(screen.getByRole("button", { name: "Create job" }));
    // The API parameter keeps its name and meaning: alerts of priority ≤ minSeverity count.
    await waitFor(() =>
      expect(createdJob(calls)).toMatchObject({ capability: "sanitize", params: { minSeverity: 1 } }),
    );
  });

  it("uses an earlier job's output instead of an upload", async () => {
    const calls = wizardServer({
      jobs: [
        makeJob({
          id: "m1",
          title: "Mix",
          outputs: [
            { name: "merged.pcap", kind: "merged", size: 10 },
            { name: "merged.summary.json", kind: "summary", size: 1 },
          ],
        }),
        makeJob({
          id: "f1",
          title: "Broken",
          status: "failed",
          outputs: [{ name: "x.pcap", kind: "capture", size: 1 }],
        }),
      ],
      createdId: "job-2",
    });
    renderApp("/ui/extract");
    await userEvent.type(await screen.findByLabelText("Title"), "From the mix");
    const select = await screen.findByLabelText("Or use an output of an earlier job");
    expect([...(select as HTMLSelectElement).options].map((o) => o.text)).toEqual(["—", "Mix / merged.pcap"]);
    await userEvent.selectOptions(select, "Mix / merged.pcap");
    expect(screen.getByTestId("picked-file")).toHaveTextContent("Mix / merged.pcap");
    await userEvent.click(screen.getByRole("button", { name: "Next" }));
    await userEvent.click(screen.getByRole("button", { name: "Create job" }));
    await waitFor(() =>
      expect(createdJob(calls)).toMatchObject({ inputs: { capture: { jobId: "m1", output: "merged.pcap" } } }),
    );
    expect(api.upload).not.toHaveBeenCalled();
  });
});
