// The app shell: header, side menu (items, order, collapse), footer, and the fallback route.
import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import { alice, fakeServer, jobPage, makeJob, renderApp } from "./test-utils.js";

afterEach(() => {
  vi.unstubAllGlobals();
  localStorage.clear();
});

const menuLinks = () =>
  within(screen.getByRole("navigation", { name: "Main menu" }))
    .getAllByRole("link")
    .map((a) => a.textContent);

describe("App shell", () => {
  it("renders header, menu and footer with two partner logos at /", async () => {
    fakeServer({ "GET /api/auth/session": () => ({ body: {} }) });
    renderApp("/");
    expect(screen.getByRole("banner")).toHaveTextContent("Tracemill");
    expect(screen.getByRole("navigation", { name: "Main menu" })).toBeInTheDocument();
    const footer = screen.getByRole("contentinfo");
    expect(within(footer).getAllByRole("img", { name: /^Partner:/ })).toHaveLength(2);
    expect(await screen.findByRole("link", { name: "Sign in" })).toHaveAttribute("href", "/ui/login");
    expect(screen.getByRole("link", { name: "Register" })).toHaveAttribute("href", "/ui/register");
  });

  it("lists the menu items in SPEC order, without Download and Sample Datasets when signed out", async () => {
    fakeServer({ "GET /api/auth/session": () => ({ body: {} }) });
    renderApp("/");
    await screen.findByRole("link", { name: "Sign in" });
    expect(menuLinks()).toEqual([
      "Home",
      "Capabilities Descriptions",
      "Capability Usage",
      "My Jobs List",
      "Shared Jobs",
      "Feature Extraction",
      "Traffic Sanitization",
      "Controlled Traffic Aggregation",
      "Automated Traffic Labeling",
      "Time Series Generator (IPT)",
      "Grayscale Image Generator",
      "Dataset Builder",
      "Feature Set",
      "File Formats",
      "About / Contact",
    ]);
    const sections = screen.getAllByRole("heading", { level: 2 }).map((h) => h.textContent);
    expect(sections).toEqual(expect.arrayContaining(["Jobs", "Capabilities", "Resources"]));
  });

  it("shows Download and Sample Datasets when signed in, and the user with Sign out", async () => {
    fakeServer({
      "GET /api/auth/session": () => ({ body: alice }),
      "GET /api/jobs": (_, url) => ({ body: jobPage([], url) }),
    });
    renderApp("/");
    expect(await screen.findByRole("link", { name: "Download" })).toHaveAttribute("href", "/code");
    expect(screen.getByRole("link", { name: "Sample Datasets" })).toHaveAttribute("href", "/sampledatasets");
    expect(menuLinks().indexOf("Download")).toBe(menuLinks().indexOf("Feature Set") + 1);
    expect(menuLinks().indexOf("Sample Datasets")).toBe(menuLinks().indexOf("File Formats") + 1);
    expect(screen.getByRole("link", { name: "alice" })).toHaveAttribute("href", "/ui/profile");
    expect(screen.queryByRole("link", { name: "Sign in" })).toBeNull();
  });

  it("forgets the jobs it showed when their owner signs out, so the next user never sees them", async () => {
    let signedIn: typeof alice | null = alice;
    fakeServer({
      "GET /api/auth/session": () => ({ body: signedIn ?? {} }),
      "POST /api/auth/logout": () => {
        signedIn = null;
        return { status: 204 };
      },
      "POST /api/auth/login": () => {
        signedIn = { userName: "bob", email: "bob@example.org" };
        return { body: signedIn };
      },
      "GET /api/jobs": (_, url) => ({ body: jobPage([makeJob({ title: "Alice's capture" })], url) }),
    });
    // Bob's list stays in flight: whatever the page shows meanwhile comes from what the app kept.
    const answer = globalThis.fetch;
    vi.stubGlobal("fetch", (input: RequestInfo | URL, init?: RequestInit) =>
      signedIn?.userName === "bob" && String(input).startsWith("/api/jobs")
        ? new Promise<Response>(() => {})
        : answer(input, init),
    );
    renderApp("/ui/dataSets");
    expect(await screen.findByRole("link", { name: "Alice's capture" })).toBeInTheDocument();
    await userEvent.click(screen.getByRole("button", { name: "Sign out" }));
    await userEvent.type(await screen.findByLabelText("Email"), "bob@example.org");
    await userEvent.type(screen.getByLabelText("Password"), "correct horse");
    await userEvent.click(screen.getByRole("button", { name: "Signin" }));
    expect(await screen.findByRole("heading", { name: "My Jobs" })).toBeInTheDocument();
    expect(screen.getByRole("link", { name: "bob" })).toBeInTheDocument();
    expect(screen.getByText("Loading…")).toBeInTheDocument();
    expect(screen.queryByText("Alice's capture")).toBeNull();
  });

  it("collapses to icons alone and reopens with its arrow button; it starts open", async () => {
    fakeServer({
      "GET /api/auth/session": () => ({ body: alice }),
      "GET /api/jobs": (_, url) => ({ body: jobPage([], url) }),
    });
    renderApp("/");
    await screen.findByRole("link", { name: "Download" });
    const toggle = screen.getByRole("button", { name: "Collapse menu" });
    expect(toggle).toHaveAttribute("aria-expanded", "true");
    const menu = screen.getByRole("navigation", { name: "Main menu" });
    const links = () => within(menu).getAllByRole("link");
    const glyphs = (link: HTMLElement) => link.querySelectorAll("svg.menu-icon path").length;
    expect(links()).toHaveLength(17);
    for (const link of links()) expect(glyphs(link), link.textContent ?? "").toBe(1);

    await userEvent.click(toggle);
    expect(menu).toHaveClass("collapsed");
    // Every entry is still there as its icon, named for screen readers and with its name as a tooltip.
    expect(links()).toHaveLength(17);
    for (const link of links()) {
      const name = link.getAttribute("title") ?? "";
      expect(glyphs(link), name).toBe(1);
      expect(within(link).getByText(name)).toHaveClass("visually-hidden");
    }
    expect(within(menu).getByRole("link", { name: "Shared Jobs" })).toHaveAttribute("href", "/ui/public/dataSets");
    // Distinct drawings, not one placeholder repeated.
    const drawings = new Set(links().map((link) => link.querySelector("svg.menu-icon")?.innerHTML));
    expect(drawings.size).toBe(17);

    await userEvent.click(screen.getByRole("button", { name: "Expand menu" }));
    expect(menu).not.toHaveClass("collapsed");
    expect(within(menu).getByText("Shared Jobs")).not.toHaveClass("visually-hidden");
    expect(within(menu).getByRole("link", { name: "Shared Jobs" })).not.toHaveAttribute("title");
  });

  it("shows Home for unknown paths", async () => {
    fakeServer({ "GET /api/auth/session": () => ({ body: {} }) });
    renderApp("/no/such/page");
    expect(screen.getByRole("heading", { level: 1, name: "Tracemill" })).toBeInTheDocument();
    await userEvent.click(screen.getByRole("button", { name: "See more" }));
    expect(screen.getByRole("button", { name: "See less" })).toBeInTheDocument();
  });

  it("remembers the dark-mode choice in localStorage", async () => {
    fakeServer({ "GET /api/auth/session": () => ({ body: {} }) });
    localStorage.setItem("tracemill.theme", "light");
    const first = renderApp("/");
    await userEvent.click(screen.getByRole("button", { name: /Dark mode/ }));
    expect(document.documentElement.dataset.theme).toBe("dark");
    expect(localStorage.getItem("tracemill.theme")).toBe("dark");
    first.unmount();
    renderApp("/");
    expect(screen.getByRole("button", { name: /Light mode/ })).toHaveAttribute("aria-pressed", "true");
  });
});

describe("guard", () => {
  it.each([
    "/ui/dataSets",
    "/ui/extract",
    "/ui/extract/labeling",
    "/ui/extract/ipts",
    "/ui/extract/images",
    "/ui/clear",
    "/ui/merge",
    "/ui/update?id=1",
    "/ui/profile",
    "/ui/resources/feature/set",
    "/ui/resources/file/formats",
  ])("sends a signed-out visitor of %s to /ui/login", async (path) => {
    fakeServer({ "GET /api/auth/session": () => ({ body: {} }) });
    renderApp(path);
    await waitFor(() =>
      expect(screen.getByTestId("location")).toHaveTextContent(`/ui/login?next=${encodeURIComponent(path)}`),
    );
    expect(screen.getByRole("heading", { name: "Login" })).toBeInTheDocument();
  });

  it.each(["/ui/resources/about", "/ui/resources/usage", "/ui/resources/capabilities"])(
    "lets anyone read %s",
    async (path) => {
      fakeServer({ "GET /api/auth/session": () => ({ body: {} }) });
      renderApp(path);
      await screen.findByRole("link", { name: "Sign in" });
      expect(screen.getByTestId("location")).toHaveTextContent(path);
    },
  );

  it("returns to the asked page after sign-in", async () => {
    fakeServer({
      "GET /api/auth/session": () => ({ body: {} }),
      "POST /api/auth/login": () => ({ body: alice }),
      "GET /api/jobs": (_, url) => ({ body: jobPage([], url) }),
    });
    renderApp("/ui/merge");
    await userEvent.type(await screen.findByLabelText("Email"), "alice@example.org");
    await userEvent.type(screen.getByLabelText("Password"), "secret-pass");
    await userEvent.click(screen.getByRole("button", { name: "Signin" }));
    await waitFor(() => expect(screen.getByTestId("location")).toHaveTextContent("/ui/merge"));
    expect(screen.getByRole("heading", { level: 1 })).toHaveTextContent("Controlled Traffic Aggregation");
  });

  it("sends a signed-in user opening /ui/login to My Jobs", async () => {
    fakeServer({
      "GET /api/auth/session": () => ({ body: alice }),
      "GET /api/jobs": (_, url) => ({ body: jobPage([], url) }),
    });
    renderApp("/ui/login");
    await waitFor(() => expect(screen.getByTestId("location")).toHaveTextContent("/ui/dataSets"));
    expect(await screen.findByRole("heading", { name: "My Jobs" })).toBeInTheDocument();
  });
});
