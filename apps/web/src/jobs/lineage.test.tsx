// Lineage on job details (the graph, its words, its list, an input's "output of" link) and "Run again with changes"
// (the wizard prefilled from a job, another user's uploads left to choose).
import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import type { Job, JobInput, JobLineage } from "@tracemill/contracts";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { api } from "../api/client.js";
import { alice, fakeServer, jobPage, makeJob, noneStored, renderApp, uploadedAs } from "../test-utils.js";

afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
});

const input = (role: JobInput["role"], id: string, name: string, extra: Partial<JobInput> = {}): JobInput => ({
  id,
  role,
  name,
  size: 2048,
  sha256: "0".repeat(64),
  format: "pcap",
  compression: null,
  createdAt: "",
  ...extra,
});

const sanitized = makeJob({ id: "s1", title: "Sanitized", capability: "sanitize" });
const mix = makeJob({
  id: "m1",
  title: "Mix",
  capability: "merge",
  description: "web traffic with log4shell",
  params: { sequential: false, map: [], at: 1 },
  inputs: [
    input("background", "u-web", "web.pcap"),
    input("attacks", "c-att", "attacks.pcap", {
      from: { jobId: "s1", output: "attacks.pcap", title: "Sanitized", capability: "sanitize" },
    }),
  ],
});
const labels = makeJob({ id: "l1", title: "Labels", capability: "label", params: { mode: "binary" } });

const node = (job: Job, extra: Partial<JobLineage["nodes"][number]> = {}) => ({
  id: job.id,
  title: job.title,
  capability: job.capability,
  status: job.status,
  warning: false,
  isOwner: true,
  ...extra,
});
const chain: JobLineage = {
  nodes: [node(mix), node(sanitized), node(labels, { warning: true })],
  edges: [
    { from: "s1", to: "m1", output: "attacks.pcap", role: "attacks" },
    { from: "m1", to: "l1", output: "provenance.json", role: "provenance" },
    { from: "m1", to: "l1", output: "merged.pcap", role: "capture" },
  ],
};

function server(jobs: Job[], lineage: Record<string, JobLineage>) {
  const routes: Parameters<typeof fakeServer>[0] = {
    "GET /api/auth/session": () => ({ body: alice }),
    "GET /api/jobs": (_, url) => ({ body: jobPage([], url) }),
    "GET /api/feature-sets": () => ({ body: [] }),
    "POST /api/files/lookup": noneStored,
    "POST /api/jobs": (body) => ({ status: 201, body: { ...(body as object), id: "new" } }),
  };
  for (const job of jobs) {
    routes[`GET /api/jobs/${job.id}`] = () => ({ body: job });
    routes[`GET /api/jobs/${job.id}/lineage`] = () => ({ body: lineage[job.id] ?? { nodes: [node(job)], edges: [] } });
  }
  return fakeServer(routes);
}

describe("lineage on job details", () => {
  it("draws the chain with the job in its middle, says it in words and as a list, each other job a link", async () => {
    server([sanitized, mix, labels], { m1: chain });
    const { container } = renderApp("/ui/details?id=m1");
    await screen.findByRole("heading", { name: "Lineage" });
    const picture = screen.getByRole("img", { name: /^Lineage of “Mix”/ });
    expect(picture).toHaveAccessibleName(
      "Lineage of “Mix”: Traffic Sanitization “Sanitized” gave attacks.pcap to Controlled Traffic Aggregation “Mix”; " +
        "Controlled Traffic Aggregation “Mix” gave merged.pcap, provenance.json to Automated Traffic Labeling “Labels”.",
    );
    // One column per step, 184 px boxes 88 px apart: the sanitize at 4, the merge at 276, the label at 548.
    const boxes = [...picture.querySelectorAll(".lineage-node")].map((box) => [
      box.querySelector("rect")?.getAttribute("x"),
      box.getAttribute("href"),
      box.getAttribute("class"),
    ]);
    expect(boxes).toEqual([
      ["4", "/ui/details?id=s1", "lineage-node outcome-succeeded"],
      ["276", null, "lineage-node outcome-succeeded current"],
      ["548", "/ui/details?id=l1", "lineage-node outcome-warning"],
    ]);
    // Two arrows: the merge → label one stands for both outputs read, the merged capture named first.
    expect([...picture.querySelectorAll(".lineage-edge text")].map((t) => t.textContent)).toEqual([
      "attacks.pcap",
      "merged.pcap +1",
    ]);
    const list = within(container.querySelector(".lineage-list") as HTMLElement);
    expect(list.getByRole("link", { name: "Sanitized" })).toHaveAttribute("href", "/ui/details?id=s1");
    expect(list.getByRole("link", { name: "Labels" })).toHaveAttribute("href", "/ui/details?id=l1");
    expect(list.getAllByRole("listitem").map((item) => item.textContent)).toEqual([
      "Sanitized — Traffic Sanitization, succeeded",
      "Mix (this job) — Controlled Traffic Aggregation, succeeded; read attacks.pcap of “Sanitized”",
      "Labels — Automated Traffic Labeling, succeeded with warnings; read merged.pcap, provenance.json of “Mix”",
    ]);

    // The attack capture's row names the job it came from; the background, an upload, names none.
    const attacks = screen.getByRole("row", { name: /^attacks/ });
    expect(attacks).toHaveTextContent("attacks.pcap output of Sanitized");
    expect(within(attacks).getByRole("link", { name: "Sanitized" })).toHaveAttribute("href", "/ui/details?id=s1");
    expect(screen.getByRole("row", { name: /^background/ })).not.toHaveTextContent("output of");
    expect(screen.getByRole("link", { name: "Run again with changes" })).toHaveAttribute("href", "/ui/merge?from=m1");

    // A box opens its job's details.
    await userEvent.click(picture.querySelector('a[href="/ui/details?id=l1"] rect') as Element);
    await waitFor(() => expect(screen.getByTestId("location")).toHaveTextContent("/ui/details?id=l1"));
    expect(await screen.findByRole("heading", { level: 1, name: /Labels/ })).toBeInTheDocument();
  });

  it("shows no lineage for a job that neither came from nor led to another", async () => {
    server([sanitized], {});
    renderApp("/ui/details?id=s1");
    await screen.findByRole("heading", { level: 1, name: /Sanitized/ });
    await waitFor(() => expect(screen.getByRole("link", { name: "Run again with changes" })).toBeInTheDocument());
    expect(screen.queryByRole("heading", { name: "Lineage" })).toBeNull();
    expect(screen.queryByRole("img", { name: /^Lineage/ })).toBeNull();
  });
});

describe("Run again with changes", () => {
  beforeEach(() => {
    vi.spyOn(api, "upload").mockImplementation(async (file) => uploadedAs(file, "mine"));
  });

  it("opens the wizard on the job's values; another user's file is left to choose, with a notice", async () => {
    const theirs = { ...mix, isOwner: false, public: true, owner: { userName: "bob" } };
    const calls = server([theirs], {});
    renderApp("/ui/merge?from=m1");
    expect(await screen.findByLabelText("Title")).toHaveValue("Mix (again)");
    expect(screen.getByLabelText("Description")).toHaveValue("web traffic with log4shell");
    expect(screen.getByRole("switch", { name: /Public/ })).not.toBeChecked();
    const again = within(screen.getByRole("region", { name: "Run again" }));
    expect(again.getByRole("link", { name: "Mix" })).toHaveAttribute("href", "/ui/details?id=m1");
    expect(again.getByRole("status")).toHaveTextContent(
      "web.pcap (background) is bob's file, which only they can use: choose a file of yours in its place.",
    );
    expect(screen.queryByTestId("picked-file")).toBeNull();
    await userEvent.click(screen.getByRole("button", { name: "Next" }));
    expect(screen.getByRole("alert")).toHaveTextContent("Choose the background capture (attack-free)");

    const pcap = new Uint8Array([
      0xd4, 0xc3, 0xb2, 0xa1, 2, 0, 4, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, 0, 0, 1, 0, 0, 0,
    ]);
    await userEvent.upload(
      screen.getByLabelText("Background capture (attack-free): choose a file"),
      new File([pcap], "my-background.pcap"),
    );
    await screen.findByText(/my-background\.pcap/);
    await userEvent.click(screen.getByRole("button", { name: "Next" }));
    // Step 2 holds the earlier job's output and the insertion point as they were.
    expect(screen.getByTestId("picked-file")).toHaveTextContent("Sanitized / attacks.pcap (2.0 KiB)");
    expect(screen.getByLabelText(/Insertion point/)).toHaveValue(1);
    await userEvent.click(screen.getByRole("button", { name: "Create job" }));
    await waitFor(() => expect(screen.getByTestId("location")).toHaveTextContent("/ui/dataSets"));
    expect(calls.find((c) => c.method === "POST" && c.path === "/api/jobs")?.body).toEqual({
      title: "Mix (again)",
      description: "web traffic with log4shell",
      public: false,
      capability: "merge",
      params: { sequential: false, map: [], at: 1 },
      inputs: { background: { fileId: "mine" }, attacks: { jobId: "s1", output: "attacks.pcap" } },
    });
  });

  it("an owner's job comes back whole: Create job at once sends the same inputs by reference", async () => {
    const calls = server([mix], {});
    renderApp("/ui/merge?from=m1");
    expect(await screen.findByTestId("picked-file")).toHaveTextContent("web.pcap (2.0 KiB)");
    expect(within(screen.getByRole("region", { name: "Run again" })).queryByRole("status")).toBeNull();
    await userEvent.click(screen.getByRole("button", { name: "Next" }));
    await userEvent.click(screen.getByRole("button", { name: "Create job" }));
    await waitFor(() => expect(screen.getByTestId("location")).toHaveTextContent("/ui/dataSets"));
    expect(calls.find((c) => c.method === "POST")?.body).toMatchObject({
      inputs: { background: { fileId: "u-web" }, attacks: { jobId: "s1", output: "attacks.pcap" } },
    });
  });
});
