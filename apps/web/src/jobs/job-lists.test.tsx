// My Jobs and Shared Jobs cards: status, progress, outputs, delete with confirmation, cancel, read-only sharing.
import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { alice, fakeServer, jobPage, makeJob, renderApp } from "../test-utils.js";
import { JOBS_LOOK_KEY } from "./job-list-controls.js";

// These are the cards' tests: the lists show the table until the Cards view is chosen (job-table.test.tsx).
beforeEach(() => localStorage.setItem(JOBS_LOOK_KEY, "cards"));
afterEach(() => {
  vi.unstubAllGlobals();
  localStorage.clear();
});

const mine = [
  makeJob({
    id: "done",
    title: "Finished extraction",
    outputs: [
      { name: "features.csv", kind: "csv", size: 2048 },
      { name: "summary.json", kind: "summary", size: 100 },
    ],
  }),
  makeJob({
    id: "run",
    title: "Running labels",
    capability: "label",
    status: "running",
    progress: { percent: 42, stage: "reading" },
  }),
  makeJob({
    id: "bad",
    title: "Broken images",
    capability: "images",
    status: "failed",
    error: "capture is damaged at byte 24",
  }),
];

describe("My Jobs", () => {
  it("shows each card's capability, status, progress, error and downloadable outputs", async () => {
    fakeServer({
      "GET /api/auth/session": () => ({ body: alice }),
      "GET /api/jobs": (_, url) => ({ body: jobPage(mine, url) }),
    });
    renderApp("/ui/dataSets");
    const done = (await screen.findByRole("article", { name: "Finished extraction" })) as HTMLElement;
    expect(within(done).getByRole("img", { name: "Feature Extraction" })).toBeInTheDocument();
    expect(within(done).getByRole("img", { name: "Succeeded" })).toBeInTheDocument();
    expect(within(done).getByRole("link", { name: /features\.csv/ })).toHaveAttribute(
      "href",
      "/api/jobs/done/outputs/features.csv",
    );
    expect(within(done).getByRole("link", { name: "Download all (zip)" })).toHaveAttribute(
      "href",
      "/api/jobs/done/outputs.zip",
    );
    expect(within(done).getByRole("link", { name: "Edit" })).toHaveAttribute(
      "href",
      "/ui/update?id=done&title=Finished%20extraction",
    );
    const running = screen.getByRole("article", { name: "Running labels" });
    expect(within(running).getByRole("progressbar", { name: "Progress of Running labels" })).toHaveAttribute(
      "value",
      "42",
    );
    expect(within(running).getByRole("img", { name: "Running" })).toBeInTheDocument();
    const failed = screen.getByRole("article", { name: "Broken images" });
    expect(within(failed).getByRole("alert")).toHaveTextContent("capture is damaged at byte 24");
  });

  it("says on the card of a job whose capture was damaged that its outputs stop at the damage", async () => {
    const cut = makeJob({
      id: "cut",
      title: "Cut capture",
      summary: {
        complete: false,
        damage: { offset: 4116, message: "cut.pcap: damaged capture at byte 4116: truncated" },
      },
      outputs: [{ name: "features.csv", kind: "csv", size: 700 }],
    });
    fakeServer({
      "GET /api/auth/session": () => ({ body: alice }),
      "GET /api/jobs": (_, url) => ({ body: jobPage([mine[0], cut], url) }),
    });
    renderApp("/ui/dataSets");
    const card = await screen.findByRole("article", { name: "Cut capture" });
    expect(within(card).getByRole("status")).toHaveTextContent(
      "Incomplete input: cut.pcap: damaged capture at byte 4116: truncated. The outputs hold what was read before byte 4116.",
    );
    expect(within(screen.getByRole("article", { name: "Finished extraction" })).queryByRole("status")).toBeNull();
  });

  it("shows a Parquet output on its card with the Parquet icon, the CSV's with the CSV icon", async () => {
    const typed = makeJob({
      id: "typed",
      title: "Typed extraction",
      outputs: [
        { name: "features.parquet", kind: "features-parquet", size: 4096 },
        { name: "summary.json", kind: "summary-json", size: 100 },
      ],
    });
    fakeServer({
      "GET /api/auth/session": () => ({ body: alice }),
      "GET /api/jobs": (_, url) => ({ body: jobPage([mine[0], typed], url) }),
    });
    renderApp("/ui/dataSets");
    const card = await screen.findByRole("article", { name: "Typed extraction" });
    const link = within(card).getByRole("link", { name: /features\.parquet/ });
    expect(link).toHaveAttribute("href", "/api/jobs/typed/outputs/features.parquet");
    expect(within(link).getByRole("img")).toHaveAccessibleName("Parquet of session features (typed columns)");
    const csv = within(screen.getByRole("article", { name: "Finished extraction" })).getByRole("link", {
      name: /features\.csv/,
    });
    expect(within(csv).getByRole("img")).toHaveAccessibleName("CSV of session features");
  });

  it("deletes a job only after confirmation and removes it from the list", async () => {
    let listed = mine;
    const calls = fakeServer({
      "GET /api/auth/session": () => ({ body: alice }),
      "GET /api/jobs": (_, url) => ({ body: jobPage(listed, url) }),
      "DELETE /api/jobs/bad": () => {
        listed = mine.filter((job) => job.id !== "bad");
        return { status: 204 };
      },
    });
    renderApp("/ui/dataSets");
    const card = await screen.findByRole("article", { name: "Broken images" });
    await userEvent.click(within(card).getByRole("button", { name: "Delete" }));
    await userEvent.click(within(card).getByRole("button", { name: "Keep" }));
    expect(calls.some((c) => c.method === "DELETE")).toBe(false);
    await userEvent.click(within(card).getByRole("button", { name: "Delete" }));
    expect(within(card).getByRole("group")).toHaveTextContent("Delete “Broken images”?");
    await userEvent.click(within(card).getByRole("button", { name: "Yes, delete" }));
    await waitFor(() => expect(screen.queryByRole("article", { name: "Broken images" })).toBeNull());
    expect(calls.filter((c) => c.method === "DELETE").map((c) => c.path)).toEqual(["/api/jobs/bad"]);
    expect(screen.getAllByRole("article")).toHaveLength(2);
  });
});

describe("Cancel", () => {
  it("cancels a running job and reloads the list", async () => {
    let cancelled = false;
    const calls = fakeServer({
      "GET /api/auth/session": () => ({ body: alice }),
      "GET /api/jobs": (_, url) => ({
        body: jobPage(cancelled ? [{ ...mine[1], status: "cancelled" }] : [mine[1]], url),
      }),
      "POST /api/jobs/run/cancel": () => {
        cancelled = true;
        return { body: { ...mine[1], status: "cancelled" } };
      },
    });
    renderApp("/ui/dataSets");
    const card = await screen.findByRole("article", { name: "Running labels" });
    await userEvent.click(within(card).getByRole("button", { name: "Cancel" }));
    expect(await within(card).findByRole("img", { name: "Cancelled" })).toBeInTheDocument();
    expect(calls.some((c) => c.method === "POST" && c.path === "/api/jobs/run/cancel")).toBe(true);
    expect(within(card).queryByRole("progressbar")).toBeNull();
  });
});

describe("Shared Jobs", () => {
  it("lists public jobs read-only, with their owner", async () => {
    fakeServer({
      "GET /api/auth/session": () => ({ body: { userName: "bob", email: "bob@example.org" } }),
      "GET /api/jobs/public": (_, url) => ({
        body: jobPage(
          [
            makeJob({
              title: "Alice's public set",
              public: true,
              isOwner: false,
              outputs: [{ name: "f.csv", kind: "csv", size: 5 }],
            }),
          ],
          url,
        ),
      }),
    });
    renderApp("/ui/public/dataSets");
    const card = await screen.findByRole("article", { name: "Alice's public set" });
    expect(card).toHaveTextContent("by alice");
    expect(within(card).getByRole("link", { name: /f\.csv/ })).toBeInTheDocument();
    expect(within(card).queryByRole("link", { name: "Edit" })).toBeNull();
    expect(within(card).queryByRole("button", { name: "Delete" })).toBeNull();
  });
});

describe("Edit", () => {
  it("loads the job, saves title, description and the public switch, and returns to My Jobs", async () => {
    const calls = fakeServer({
      "GET /api/auth/session": () => ({ body: alice }),
      "GET /api/jobs/j9": () => ({ body: makeJob({ id: "j9", title: "Old", description: "d" }) }),
      "PATCH /api/jobs/j9": (body) => ({ body: makeJob({ id: "j9", ...(body as object) }) }),
      "GET /api/jobs": (_, url) => ({ body: jobPage([], url) }),
    });
    renderApp("/ui/update?id=j9&title=Old");
    const title = await screen.findByLabelText("Title");
    await waitFor(() => expect(screen.getByLabelText("Description")).toHaveValue("d"));
    await userEvent.clear(title);
    await userEvent.click(screen.getByRole("button", { name: "Save" }));
    expect(screen.getByText("Title is required")).toBeInTheDocument();
    await userEvent.type(title, "New");
    await userEvent.click(screen.getByRole("switch", { name: /Public/ }));
    await userEvent.click(screen.getByRole("button", { name: "Save" }));
    await waitFor(() => expect(screen.getByTestId("location")).toHaveTextContent("/ui/dataSets"));
    expect(calls.find((c) => c.method === "PATCH")?.body).toEqual({ title: "New", description: "d", public: true });
  });
});
