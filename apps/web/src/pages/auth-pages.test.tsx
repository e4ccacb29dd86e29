// Login and Register: fields, every validation message, server banners, and where a sign-in leads.
import { act, fireEvent, screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import { alice, fakeServer, jobPage, renderApp } from "../test-utils.js";

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

const signedOut = { "GET /api/auth/session": () => ({ body: {} }) };

describe("Login", () => {
  it("has the fields, placeholders, toggle, Signin button and the link to Register", async () => {
    fakeServer(signedOut);
    renderApp("/ui/login");
    expect(screen.getByRole("heading", { name: "Login" })).toBeInTheDocument();
    const email = screen.getByLabelText("Email");
    expect(email).toHaveAttribute("type", "email");
    const password = screen.getByLabelText("Password");
    expect(password).toHaveAttribute("type", "password");
    await userEvent.click(screen.getByRole("button", { name: "Show password" }));
    expect(password).toHaveAttribute("type", "text");
    await userEvent.click(screen.getByRole("button", { name: "Hide password" }));
    expect(password).toHaveAttribute("type", "password");
    expect(screen.getByRole("link", { name: "Don't have an account? Sign up" })).toHaveAttribute(
      "href",
      "/ui/register",
    );
  });

  it("shows every validation message and sends nothing while the form is invalid", async () => {
    const calls = fakeServer(signedOut);
    renderApp("/ui/login");
    await userEvent.click(screen.getByRole("button", { name: "Signin" }));
    expect(screen.getByText("Email is required")).toBeInTheDocument();
    expect(screen.getByText("Password is required")).toBeInTheDocument();
    await userEvent.type(screen.getByLabelText("Email"), "not-an-email");
    await userEvent.type(screen.getByLabelText("Password"), "short");
    await userEvent.click(screen.getByRole("button", { name: "Signin" }));
    expect(screen.getByText("Email is not valid")).toBeInTheDocument();
    expect(screen.getByText("Password must be at least 8 characters")).toBeInTheDocument();
    expect(screen.getByLabelText("Password")).toHaveAttribute("aria-invalid", "true");
    expect(calls.filter((c) => c.path === "/api/auth/login")).toHaveLength(0);
  });

  it("shows the server's messages as red banners that clear after 5 seconds", async () => {
    fakeServer({
      ...signedOut,
      "POST /api/auth/login": () => ({
        status: 401,
        body: { messages: ["Email or password is incorrect", "Try again"] },
      }),
    });
    renderApp("/ui/login");
    await screen.findByRole("button", { name: "Signin" });
    vi.useFakeTimers({ shouldAdvanceTime: true });
    fireEvent.change(screen.getByLabelText("Email"), { target: { value: "alice@example.org" } });
    fireEvent.change(screen.getByLabelText("Password"), { target: { value: "wrong-password" } });
    fireEvent.click(screen.getByRole("button", { name: "Signin" }));
    const banners = await screen.findAllByRole("alert");
    expect(banners.map((b) => b.textContent)).toEqual(["Email or password is incorrect", "Try again"]);
    act(() => vi.advanceTimersByTime(4900));
    expect(screen.getAllByRole("alert")).toHaveLength(2);
    act(() => vi.advanceTimersByTime(200));
    expect(screen.queryAllByRole("alert")).toHaveLength(0);
  });

  it('shows "no login" when the answer has no userName', async () => {
    fakeServer({ ...signedOut, "POST /api/auth/login": () => ({ body: {} }) });
    renderApp("/ui/login");
    await userEvent.type(screen.getByLabelText("Email"), "alice@example.org");
    await userEvent.type(screen.getByLabelText("Password"), "long-enough");
    await userEvent.click(screen.getByRole("button", { name: "Signin" }));
    expect(await screen.findByRole("alert")).toHaveTextContent("no login");
    expect(screen.getByTestId("location")).toHaveTextContent("/ui/login");
  });

  it("goes to My Jobs after a successful sign-in", async () => {
    const calls = fakeServer({
      ...signedOut,
      "POST /api/auth/login": () => ({ body: alice }),
      "GET /api/jobs": (_, url) => ({ body: jobPage([], url) }),
    });
    renderApp("/ui/login");
    await userEvent.type(screen.getByLabelText("Email"), " alice@example.org ");
    await userEvent.type(screen.getByLabelText("Password"), "long-enough");
    await userEvent.click(screen.getByRole("button", { name: "Signin" }));
    await waitFor(() => expect(screen.getByTestId("location")).toHaveTextContent("/ui/dataSets"));
    expect(calls.find((c) => c.path === "/api/auth/login")?.body).toEqual({
      email: "alice@example.org",
      password: "long-enough",
    });
  });

  it("can be filled and sent with the keyboard alone", async () => {
    fakeServer({
      ...signedOut,
      "POST /api/auth/login": () => ({ body: alice }),
      "GET /api/jobs": (_, url) => ({ body: jobPage([], url) }),
    });
    renderApp("/ui/login");
    await screen.findByRole("button", { name: "Signin" });
    screen.getByLabelText("Email").focus();
    await userEvent.keyboard("alice@example.org");
    await userEvent.tab();
    expect(screen.getByLabelText("Password")).toHaveFocus();
    await userEvent.keyboard("long-enough");
    await userEvent.tab();
    expect(screen.getByRole("button", { name: "Show password" })).toHaveFocus();
    await userEvent.tab();
    expect(screen.getByRole("button", { name: "Signin" })).toHaveFocus();
    await userEvent.keyboard("{Enter}");
    await waitFor(() => expect(screen.getByTestId("location")).toHaveTextContent("/ui/dataSets"));
  });

  it("shows the session check's messages when it fails", async () => {
    fakeServer({
      "GET /api/auth/session": () => ({ status: 503, body: { messages: ["The database is not reachable"] } }),
    });
    renderApp("/ui/login");
    expect(await screen.findByRole("alert")).toHaveTextContent("The database is not reachable");
  });
});

describe("Register", () => {
  it("has the four fields with their placeholders, a toggle and a link to Login", async () => {
    fakeServer(signedOut);
    renderApp("/ui/register");
    expect(screen.getByRole("heading", { name: "Register" })).toBeInTheDocument();
    expect(screen.getByLabelText("User name")).toHaveAttribute("placeholder", "Your name");
    expect(screen.getByLabelText("Email")).toHaveAttribute("type", "email");
    expect(screen.getByLabelText("Password")).toHaveAttribute("placeholder", "Password");
    expect(screen.getByLabelText("Repeat password")).toHaveAttribute("placeholder", "Repeat password");
    await userEvent.click(screen.getByRole("button", { name: "Show password" }));
    expect(screen.getByLabelText("Password")).toHaveAttribute("type", "text");
    expect(screen.getByRole("link", { name: "Already have an account? Sign in" })).toHaveAttribute("href", "/ui/login");
  });

  it("shows every validation message", async () => {
    const calls = fakeServer(signedOut);
    renderApp("/ui/register");
    const submit = screen.getByRole("button", { name: "Sign up" });
    await userEvent.click(submit);
    expect(screen.getByText("User is required")).toBeInTheDocument();
    expect(screen.getByText("Email is required")).toBeInTheDocument();
    expect(screen.getAllByText("Password is required")).toHaveLength(2);
    await userEvent.type(screen.getByLabelText("Password"), "1234567");
    await userEvent.type(screen.getByLabelText("Repeat password"), "1234567");
    await userEvent.click(submit);
    expect(screen.getAllByText("Password must be at least 8 characters")).toHaveLength(2);
    await userEvent.type(screen.getByLabelText("Password"), "8");
    await userEvent.type(screen.getByLabelText("Repeat password"), "9");
    await userEvent.click(submit);
    expect(screen.getByText("Password not match")).toBeInTheDocument();
    expect(calls.filter((c) => c.path === "/api/auth/register")).toHaveLength(0);
  });

  it("sends the signup fields and goes to /ui/login", async () => {
    const calls = fakeServer({ ...signedOut, "POST /api/auth/register": () => ({ status: 201, body: alice }) });
    renderApp("/ui/register");
    await userEvent.type(screen.getByLabelText("User name"), "alice");
    await userEvent.type(screen.getByLabelText("Email"), "alice@example.org");
    await userEvent.type(screen.getByLabelText("Password"), "long-enough");
    await userEvent.type(screen.getByLabelText("Repeat password"), "long-enough");
    await userEvent.click(screen.getByRole("button", { name: "Sign up" }));
    await waitFor(() => expect(screen.getByTestId("location")).toHaveTextContent("/ui/login"));
    expect(calls.find((c) => c.path === "/api/auth/register")?.body).toEqual({
      userName: "alice",
      email: "alice@example.org",
      password: "long-enough",
      Renewpassword: "long-enough",
    });
  });

  it("shows the server's messages when the email is taken, and no success notice", async () => {
    fakeServer({
      ...signedOut,
      "POST /api/auth/register": () => ({ status: 409, body: { messages: ["Email is already registered"] } }),
    });
    renderApp("/ui/register");
    await userEvent.type(screen.getByLabelText("User name"), "alice");
    await userEvent.type(screen.getByLabelText("Email"), "alice@example.org");
    await userEvent.type(screen.getByLabelText("Password"), "long-enough");
    await userEvent.type(screen.getByLabelText("Repeat password"), "long-enough");
    await userEvent.click(screen.getByRole("button", { name: "Sign up" }));
    expect(await screen.findByRole("alert")).toHaveTextContent("Email is already registered");
    expect(screen.getByTestId("location")).toHaveTextContent("/ui/register");
    // No success notice when the server refuses.
    expect(screen.queryAllByRole("status").find((el) => el.classList.contains("banner"))).toBeUndefined();
  });
});
