// How a job ended, as the app shows it: a suspect success (warnings) with its own look and banner, failed jobs as
// failed (with Retry for their owner), read-only pages for other users, and Shared Jobs signed out.
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

const noMatch = {
  code: "no-alerts-matched",
  message: "None of the 253 alerts read matched a session of the capture, so every session is labelled benign.",
};
const suspect = makeJob({
  id: "sus",
  title: "Labels from unrelated alerts",
  capability: "label",
  summary: { labels: { alertsRead: 253, matchedAlerts: 0 } },
  warnings: [noMatch],
});
const clean = makeJob({ id: "ok", title: "Good extraction" });
const failed = makeJob({
  id: "bad",
  title: "Broken merge",
  capability: "merge",
  status: "failed",
  error: "background.pcap: damaged capture at byte 60",
  summary: null,
});

describe("a suspect result", () => {
  it("shows a warning look instead of the green tick on its card, and a banner saying what and why", async () => {
    fakeServer({
      "GET /api/auth/session": () => ({ body: alice }),
      "GET /api/jobs": (_, url) => ({ body: jobPage([suspect, clean], url) }),
    });
    renderApp("/ui/dataSets");
    const card = await screen.findByRole("article", { name: "Labels from unrelated alerts" });
    expect(card).toHaveClass("status-warning");
    expect(within(card).getByRole("img", { name: "Succeeded with warnings" })).toBeInTheDocument();
    expect(within(card).queryByRole("img", { name: "Succeeded" })).toBeNull();
    const banner = within(card).getByRole("region", { name: "Result warnings" });
    expect(banner).toHaveTextContent(noMatch.message);
    const good = screen.getByRole("article", { name: "Good extraction" });
    expect(good).toHaveClass("status-succeeded");
    expect(within(good).getByRole("img", { name: "Succeeded" })).toBeInTheDocument();
    expect(within(good).queryByRole("region", { name: "Result warnings" })).toBeNull();
  });

  it("says the same on the details page", async () => {
    fakeServer({ "GET /api/auth/session": () => ({ body: alice }), "GET /api/jobs/sus": () => ({ body: suspect }) });
    renderApp("/ui/details?id=sus");
    const banner = await screen.findByRole("region", { name: "Result warnings" });
    expect(
      within(banner)
        .getAllByRole("listitem")
        .map((li) => li.textContent),
    ).toEqual([noMatch.message]);
    expect(screen.getByRole("img", { name: "Succeeded with warnings" })).toBeInTheDocument();
    expect(screen.queryByRole("img", { name: "Succeeded" })).toBeNull();
  });

  it("leaves a damaged input to its own notice (with the byte offset), and still shows the warning look", async () => {
    const cut = makeJob({
      id: "cut",
      title: "Cut capture",
      summary: { complete: false, damage: { offset: 4116, message: "cut.pcap: damaged capture at byte 4116" } },
      warnings: [{ code: "input-damaged", message: "The input is damaged (cut.pcap: damaged capture at byte 4116)." }],
    });
    fakeServer({
      "GET /api/auth/session": () => ({ body: alice }),
      "GET /api/jobs": (_, url) => ({ body: jobPage([cut], url) }),
    });
    renderApp("/ui/dataSets");
    const card = await screen.findByRole("article", { name: "Cut capture" });
    expect(within(card).getByRole("img", { name: "Succeeded with warnings" })).toBeInTheDocument();
    expect(within(card).getByRole("status")).toHaveTextContent("before byte 4116");
    expect(within(card).queryByRole("region", { name: "Result warnings" })).toBeNull();
  });
});

describe("a failed job", () => {
  it("reads as failed on its details page: the error, no outputs because it failed, no pending summary", async () => {
    fakeServer({ "GET /api/auth/session": () => ({ body: alice }), "GET /api/jobs/bad": () => ({ body: failed }) });
    renderApp("/ui/details?id=bad");
    expect(await screen.findByRole("alert")).toHaveTextContent("Failed: background.pcap: damaged capture at byte 60");
    expect(screen.getByText("No outputs: the job failed.")).toBeInTheDocument();
    expect(screen.queryByText("None yet.")).toBeNull();
    expect(screen.queryByRole("heading", { name: "Run summary" })).toBeNull();
    expect(screen.queryByText(/Not available yet/)).toBeNull();
  });

  it("is retried from its details page as a new job, whose details are shown next", async () => {
    const again = makeJob({ ...failed, id: "again", status: "queued", error: null });
    const calls = fakeServer({
      "GET /api/auth/session": () => ({ body: alice }),
      "GET /api/jobs/bad": () => ({ body: failed }),
      "POST /api/jobs/bad/retry": () => ({ status: 201, body: again }),
      "GET /api/jobs/again": () => ({ body: again }),
    });
    renderApp("/ui/details?id=bad");
    await userEvent.click(await screen.findByRole("button", { name: "Retry" }));
    await waitFor(() => expect(screen.getByTestId("location")).toHaveTextContent("/ui/details?id=again"));
    expect(calls.filter((c) => c.method === "POST").map((c) => c.path)).toEqual(["/api/jobs/bad/retry"]);
    expect(await screen.findByText("None yet.")).toBeInTheDocument();
  });

  it("has Retry on its card for its owner (failed or cancelled), and not on finished or others' jobs", async () => {
    const cancelled = makeJob({ id: "stop", title: "Stopped", status: "cancelled" });
    let listed = [failed, cancelled, clean];
    const calls = fakeServer({
      "GET /api/auth/session": () => ({ body: alice }),
      "GET /api/jobs": (_, url) => ({ body: jobPage(listed, url) }),
      "POST /api/jobs/bad/retry": () => {
        listed = [makeJob({ ...failed, id: "again", status: "queued", error: null }), ...listed];
        return { status: 201, body: listed[0] };
      },
    });
    renderApp("/ui/dataSets");
    const card = await screen.findByRole("article", { name: "Broken merge" });
    expect(
      within(screen.getByRole("article", { name: "Stopped" })).getByRole("button", { name: "Retry" }),
    ).toBeVisible();
    expect(
      within(screen.getByRole("article", { name: "Good extraction" })).queryByRole("button", { name: "Retry" }),
    ).toBeNull();
    await userEvent.click(within(card).getByRole("button", { name: "Retry" }));
    await waitFor(() => expect(screen.getAllByRole("article", { name: "Broken merge" })).toHaveLength(2));
    expect(calls.filter((c) => c.method === "POST").map((c) => c.path)).toEqual(["/api/jobs/bad/retry"]);
  });

  it("offers no Retry to someone else reading it", async () => {
    fakeServer({
      "GET /api/auth/session": () => ({ body: alice }),
      "GET /api/jobs/bad": () => ({ body: { ...failed, isOwner: false, public: true, owner: { userName: "bob" } } }),
    });
    renderApp("/ui/details?id=bad");
    await screen.findByRole("alert");
    expect(screen.queryByRole("button", { name: "Retry" })).toBeNull();
  });
});

describe("someone else's public job", () => {
  it("opens no edit form at /ui/update: a read-only notice and the way to its details", async () => {
    const calls = fakeServer({
      "GET /api/auth/session": () => ({ body: alice }),
      "GET /api/jobs/theirs": () => ({
        body: makeJob({
          id: "theirs",
          title: "Bob's dataset",
          public: true,
          isOwner: false,
          owner: { userName: "bob" },
        }),
      }),
    });
    renderApp("/ui/update?id=theirs&title=Bob");
    expect(await screen.findByText(/only its owner can edit it/)).toHaveTextContent(
      "This job is bob's: only its owner can edit it.",
    );
    expect(screen.getByRole("link", { name: "See the job's details" })).toHaveAttribute(
      "href",
      "/ui/details?id=theirs",
    );
    expect(screen.queryByRole("textbox")).toBeNull();
    expect(screen.queryByRole("switch")).toBeNull();
    expect(screen.queryByRole("button", { name: "Save" })).toBeNull();
    expect(calls.some((c) => c.method !== "GET")).toBe(false);
  });
});

describe("Shared Jobs signed out", () => {
  it("lists the public jobs read-only, without sending the visitor to sign in", async () => {
    const shared = makeJob({
      id: "pub",
      title: "Open dataset",
      public: true,
      isOwner: false,
      owner: { userName: "bob" },
    });
    fakeServer({
      "GET /api/auth/session": () => ({ body: {} }),
      "GET /api/jobs/public": (_, url) => ({ body: jobPage([shared], url) }),
    });
    renderApp("/ui/public/dataSets");
    const card = await screen.findByRole("article", { name: "Open dataset" });
    expect(screen.getByTestId("location")).toHaveTextContent("/ui/public/dataSets");
    expect(within(card).getByRole("link", { name: "Details" })).toHaveAttribute("href", "/ui/details?id=pub");
    expect(within(card).queryByRole("button")).toBeNull();
    expect(within(card).queryByRole("link", { name: "Edit" })).toBeNull();
  });

  it("shows a public job's details signed out, without owner actions", async () => {
    const shared = makeJob({ ...failed, public: true, isOwner: false, owner: { userName: "bob" } });
    fakeServer({ "GET /api/auth/session": () => ({ body: {} }), "GET /api/jobs/bad": () => ({ body: shared }) });
    renderApp("/ui/details?id=bad");
    expect(await screen.findByRole("alert")).toHaveTextContent("Failed:");
    expect(screen.getByTestId("location")).toHaveTextContent("/ui/details?id=bad");
    expect(screen.queryByRole("button", { name: "Retry" })).toBeNull();
    expect(screen.queryByRole("link", { name: "Edit" })).toBeNull();
  });
});
