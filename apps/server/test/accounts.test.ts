// Accounts against a real server: every validation message of SPEC §5, unique emails, sessions and cookies,
// slowed sign-ins, the registration limit, cross-site protection, and the original product's /singup, /singin,
// /sesion, /logout.
import { messages } from "@tracemill/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ServedApp } from "../../cli/test/run-cli.js";
import { Client, startServer } from "./server-harness.js";

let app: ServedApp;
beforeAll(async () => {
  app = await startServer();
});
afterAll(async () => {
  await app?.stop();
});

const good = { userName: "Ada", password: "12345678", Renewpassword: "12345678" };
const uniqueEmail = () => `user-${Math.random().toString(36).slice(2)}@Example.org`;

describe("register (POST /api/auth/register)", () => {
  const cases: [string, Record<string, unknown>, string[]][] = [
    ["missing userName", { ...good, userName: "" }, [messages.userRequired]],
    ["missing email", { ...good, email: "" }, [messages.emailRequired]],
    ["invalid email", { ...good, email: "not-an-email" }, [messages.emailInvalid]],
    ["missing password", { ...good, password: "" }, [messages.passwordRequired]],
    ["short password", { ...good, password: "1234567", Renewpassword: "1234567" }, [messages.passwordTooShort]],
    ["missing Renewpassword", { ...good, Renewpassword: undefined }, [messages.passwordRequired]],
    ["different Renewpassword", { ...good, Renewpassword: "87654321" }, [messages.passwordMismatch]],
  ];
  for (const [name, body, expected] of cases) {
    it(`answers 400 with the spec's message for ${name}`, async () => {
      const client = new Client(app.url);
      const answer = await client.call("POST", "/api/auth/register", { email: uniqueEmail(), ...body });
      expect(answer.status).toBe(400);
      expect(answer.body.messages).toEqual(expected);
    });
  }

  it("lists every missing field of an empty form", async () => {
    const answer = await new Client(app.url).call("POST", "/api/auth/register", {});
    expect(answer.status).toBe(400);
    expect(answer.body.messages).toEqual([messages.userRequired, messages.emailRequired, messages.passwordRequired]);
  });

  it("registers once per email, whatever its case", async () => {
    const client = new Client(app.url);
    const email = uniqueEmail();
    const first = await client.call("POST", "/api/auth/register", { ...good, email });
    expect(first.status).toBe(201);
    expect(first.body).toEqual({ userName: "Ada", email });
    const again = await client.call("POST", "/api/auth/register", { ...good, email: email.toUpperCase() });
    expect(again.status).toBe(409);
    expect(again.body.messages).toEqual([messages.emailTaken]);
  });
});

describe("sign in, session, sign out", () => {
  it("validates the sign-in form", async () => {
    const client = new Client(app.url);
    expect((await client.call("POST", "/api/auth/login", {})).body.messages).toEqual([
      messages.emailRequired,
      messages.passwordRequired,
    ]);
    const short = await client.call("POST", "/api/auth/login", { email: "a@b.org", password: "short" });
    expect(short.body.messages).toEqual([messages.passwordTooShort]);
  });

  it("signs in with any case of the email, sets an httpOnly SameSite=Lax expiring cookie, and signs out", async () => {
    const client = new Client(app.url);
    const email = uniqueEmail();
    await client.call("POST", "/api/auth/register", { ...good, email });
    expect((await client.call("GET", "/api/auth/session")).body).toEqual({});
    const login = await client.call("POST", "/api/auth/login", { email: email.toLowerCase(), password: good.password });
    expect(login.status).toBe(200);
    expect(login.body.userName).toBe("Ada");
    const cookie = login.headers.get("set-cookie") ?? "";
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Lax/);
    const expires = Date.parse(/Expires=([^;]+)/.exec(cookie)?.[1] ?? "");
    expect(expires).toBeGreaterThan(Date.now() + 24 * 3600_000);
    expect((await client.call("GET", "/api/auth/session")).body).toEqual({ userName: "Ada", email });
    const stolen = client.cookie;
    expect((await client.call("POST", "/api/auth/logout")).status).toBe(200);
    expect((await client.call("GET", "/api/auth/session")).body).toEqual({});
    // The session ended on the server: the old cookie is worthless.
    client.cookie = stolen;
    expect((await client.call("GET", "/api/auth/session")).body).toEqual({});
  });

  it("answers a wrong password and an unknown email alike", async () => {
    const client = new Client(app.url);
    const email = uniqueEmail();
    await client.call("POST", "/api/auth/register", { ...good, email });
    const wrong = await client.call("POST", "/api/auth/login", { email, password: "wrong password" });
    const unknown = await client.call("POST", "/api/auth/login", { email: uniqueEmail(), password: "wrong password" });
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    expect(wrong.body).toEqual(unknown.body);
    expect(wrong.body.messages).toEqual([messages.badCredentials]);
  });

  it("slows down repeated failed sign-ins: after five failures even the right password must wait", async () => {
    const client = new Client(app.url);
    const email = uniqueEmail();
    await client.call("POST", "/api/auth/register", { ...good, email });
    for (let i = 0; i < 5; i++) {
      expect((await client.call("POST", "/api/auth/login", { email, password: "wrong password" })).status).toBe(401);
    }
    const blocked = await client.call("POST", "/api/auth/login", { email, password: good.password });
    expect(blocked.status).toBe(429);
    expect(blocked.body.messages[0]).toMatch(/^Too many failed sign-ins; try again in \d+ seconds$/);
    await new Promise((r) => setTimeout(r, 1100));
    expect((await client.call("POST", "/api/auth/login", { email, password: good.password })).status).toBe(200);
  });
});

describe("many failed sign-ins from one client", () => {
  it("slow down that client whatever emails it tries", async () => {
    // Its own server: the other tests' failures come from the same address.
    const server = await startServer();
    try {
      const client = new Client(server.url);
      const email = uniqueEmail();
      await client.call("POST", "/api/auth/register", { ...good, email });
      for (let i = 0; i < 20; i++) {
        const answer = await client.call("POST", "/api/auth/login", {
          email: uniqueEmail(),
          password: "wrong password",
        });
        expect(answer.status).toBe(401);
      }
      const blocked = await client.call("POST", "/api/auth/login", { email, password: good.password });
      expect(blocked.status).toBe(429);
    } finally {
      await server.stop();
    }
  });
});

describe("cross-site protection", () => {
  it("refuses state-changing calls from another site, with or without Sec-Fetch-Site", async () => {
    const client = new Client(app.url);
    const body = { ...good, email: uniqueEmail() };
    const bySite = await client.call("POST", "/api/auth/register", body, { "Sec-Fetch-Site": "cross-site" });
    expect(bySite.status).toBe(403);
    const response = await fetch(`${app.url}/api/auth/register`, {
      method: "POST",
      headers: { "Content-Type": "application/json", Origin: "http://evil.example" },
      body: JSON.stringify(body),
    });
    expect(response.status).toBe(403);
    expect(await response.json()).toEqual({ messages: ["Cross-site requests are not allowed"] });
    const sameOrigin = await fetch(`${app.url}/api/auth/register`, {
      method: "POST",
      headers: { "Content-Type": "application/json", Origin: app.url.replace("localhost", "localhost") },
      body: JSON.stringify(body),
    });
    expect(sameOrigin.status).toBe(201);
  });
});

describe("the original product's account calls", () => {
  it("/singup, /singin, /sesion and /logout answer as the original client reads them", async () => {
    const client = new Client(app.url);
    const email = uniqueEmail();
    const bad = await client.call("POST", "/singup", { ...good, email, Renewpassword: "other pass" });
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual([messages.passwordMismatch]);
    expect((await client.call("POST", "/singup", { ...good, email })).body).toEqual({ userName: "Ada", email });
    expect((await client.call("POST", "/sesion")).body).toEqual({});
    const wrong = await client.call("POST", "/singin", { email, password: "not the password" });
    expect(wrong.body).toEqual([messages.badCredentials]);
    const signIn = await client.call("POST", "/singin", { email, password: good.password });
    expect(signIn.body.userName).toBe("Ada");
    expect((await client.call("POST", "/sesion")).body.userName).toBe("Ada");
    // The original client posts these without a body, possibly still labelled as JSON.
    const empty = { "Content-Type": "application/json" };
    expect((await client.raw("POST", "/sesion", { headers: empty })).status).toBe(200);
    expect(await (await client.raw("POST", "/logout", { headers: empty })).json()).toEqual({ ok: true });
    expect((await client.call("POST", "/sesion")).body).toEqual({});
    const broken = await client.raw("POST", "/singin", { headers: empty, body: "{not json" });
    expect(broken.status).toBe(400);
  });
});

describe("a parallel burst of wrong passwords (behind a proxy: addresses from X-Forwarded-For)", () => {
  it("gets at most five real answers; the owner gets in at once from their usual address, within 1 s from the attacker's", async () => {
    const server = await startServer({ env: { TRACEMILL_TRUST_PROXY: "1" } });
    try {
      const client = new Client(server.url);
      const from = (address: string) => ({ "X-Forwarded-For": address });
      const email = uniqueEmail();
      expect((await client.call("POST", "/api/auth/register", { ...good, email })).status).toBe(201);
      const right = { email, password: good.password };
      expect((await client.call("POST", "/api/auth/login", right, from("192.0.2.10"))).status).toBe(200);

      const wrong = { email, password: "wrong password" };
      const burst = await Promise.all(
        Array.from({ length: 60 }, () =>
          new Client(server.url).call("POST", "/api/auth/login", wrong, from("203.0.113.5")),
        ),
      );
      const statuses = burst.map((a) => a.status);
      expect(statuses.filter((s) => s === 401)).toHaveLength(5);
      expect(statuses.filter((s) => s === 429)).toHaveLength(55);

      const started = Date.now();
      expect((await client.call("POST", "/api/auth/login", right, from("192.0.2.10"))).status).toBe(200);
      expect(Date.now() - started).toBeLessThan(1000);
      const held = await client.call("POST", "/api/auth/login", right, from("203.0.113.5"));
      expect(held.status).toBe(429);
      expect(held.body.messages).toEqual([`${messages.tooManyAttempts} 1 seconds`]);
      await new Promise((r) => setTimeout(r, 1000));
      expect((await client.call("POST", "/api/auth/login", right, from("203.0.113.5"))).status).toBe(200);
    } finally {
      await server.stop();
    }
  });
});

describe("registration limit", () => {
  it("takes 20 registrations an hour from one address, /singup and /api/auth/register together, then answers 429", async () => {
    const server = await startServer({ env: { TRACEMILL_TRUST_PROXY: "1" } });
    try {
      const client = new Client(server.url);
      const from = (address: string) => ({ "X-Forwarded-For": address });
      const register = (url: string, address: string) =>
        client.call("POST", url, { ...good, email: uniqueEmail() }, from(address));
      for (let i = 0; i < 19; i++) expect((await register("/api/auth/register", "198.51.100.20")).status).toBe(201);
      expect((await register("/singup", "198.51.100.20")).status).toBe(200);

      const refused = await register("/api/auth/register", "198.51.100.20");
      expect(refused.status).toBe(429);
      expect(refused.body.messages).toEqual([
        expect.stringMatching(/^Too many registrations from this address; try again in (59|60) minutes$/),
      ]);
      expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(3500);
      const legacy = await register("/singup", "198.51.100.20");
      expect(legacy.status).toBe(429);
      expect(legacy.body).toEqual([expect.stringMatching(/^Too many registrations from this address/)]);
      // Another address is not held.
      expect((await register("/api/auth/register", "198.51.100.21")).status).toBe(201);
    } finally {
      await server.stop();
    }
  });
});
