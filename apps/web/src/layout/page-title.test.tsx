// Each screen names itself in the browser tab: "<screen> — Tracemill", a job's details by the job's title.
import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import { alice, fakeServer, type Handler, jobPage, makeJob, renderApp } from "../test-utils.js";

afterEach(() => {
  vi.unstubAllGlobals();
  document.title = "";
});

const signedIn: Record<string, Handler> = {
  "GET /api/auth/session": () => ({ body: alice }),
  "GET /api/jobs": (_, url) => ({ body: jobPage([], url) }),
  "GET /api/jobs/public": (_, url) => ({ body: jobPage([], url) }),
  "GET /api/feature-sets": () => ({ body: [] }),
  "GET /api/files": () => ({ body: [] }),
  "GET /api/rulesets": () => ({ body: [] }),
  "GET /api/libraries": () => ({ body: [] }),
};

describe("page titles", () => {
  it.each([
    ["/", "Tracemill"],
    ["/ui/dataSets", "My Jobs — Tracemill"],
    ["/ui/public/dataSets", "Shared Jobs — Tracemill"],
    ["/ui/extract", "Feature Extraction — Tracemill"],
    ["/ui/clear", "Traffic Sanitization — Tracemill"],
    ["/ui/merge", "Controlled Traffic Aggregation — Tracemill"],
    ["/ui/extract/labeling", "Automated Traffic Labeling — Tracemill"],
    ["/ui/extract/ipts", "Time Series Generator (IPT) — Tracemill"],
    ["/ui/extract/images", "Grayscale Image Generator — Tracemill"],
    ["/ui/resources/feature/set", "Feature Set — Tracemill"],
    ["/ui/resources/file/formats", "File Formats — Tracemill"],
    ["/ui/resources/capabilities", "Capabilities Descriptions — Tracemill"],
    ["/ui/resources/usage", "Capability Usage — Tracemill"],
    ["/ui/resources/about", "About / Contact — Tracemill"],
    ["/ui/profile", "Profile — Tracemill"],
  ])("%s is titled %s", async (path, title) => {
    fakeServer(signedIn);
    renderApp(path);
    await waitFor(() => expect(document.title).toBe(title));
  });

  it("signed out, the login and register screens name themselves", async () => {
    fakeServer({ "GET /api/auth/session": () => ({ body: {} }) });
    const login = renderApp("/ui/login");
    await waitFor(() => expect(document.title).toBe("Login — Tracemill"));
    login.unmount();
    renderApp("/ui/register");
    await waitFor(() => expect(document.title).toBe("Register — Tracemill"));
  });

  it("a job's details are titled by the job, and the title follows navigation", async () => {
    const job = makeJob({ id: "j7", title: "Day 1 features" });
    fakeServer({ ...signedIn, "GET /api/jobs/j7": () => ({ body: job }) });
    renderApp("/ui/details?id=j7");
    await waitFor(() => expect(document.title).toBe("Day 1 features — Tracemill"));
    const menu = screen.getByRole("navigation", { name: "Main menu" });
    await userEvent.click(within(menu).getByRole("link", { name: "My Jobs List" }));
    await waitFor(() => expect(document.title).toBe("My Jobs — Tracemill"));
    await userEvent.click(within(menu).getByRole("link", { name: "Feature Extraction" }));
    await waitFor(() => expect(document.title).toBe("Feature Extraction — Tracemill"));
  });

  it("the edit screen names the job it edits", async () => {
    fakeServer({ ...signedIn, "GET /api/jobs/j7": () => ({ body: makeJob({ id: "j7", title: "Day 1" }) }) });
    renderApp("/ui/update?id=j7");
    await waitFor(() => expect(document.title).toBe("Edit: Day 1 — Tracemill"));
  });
});
