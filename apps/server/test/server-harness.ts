// Test harness: a real `tracemill serve` process on a temporary data directory, and a client with a cookie jar.
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { fixturePath } from "../../../test/helpers/fixtures.js";
import { type ServedApp, serve } from "../../cli/test/run-cli.js";

export const fakeEngine = path.join(path.dirname(fileURLToPath(import.meta.url)), "fake-engine.mjs");
/** A fixture's bytes, by file name or path under test/fixtures (test/helpers/fixtures.ts). */
export const fixture = (name: string) => fs.readFileSync(fixturePath(name));

export interface ServerOptions {
  fake?: boolean;
  workers?: number;
  env?: NodeJS.ProcessEnv;
  dataDir?: string;
  /** A command line the server is started through (small-disk.ts: a namespace with a small data disk). */
  launcher?: string[];
}

export async function startServer(options: ServerOptions = {}): Promise<ServedApp> {
  const env: NodeJS.ProcessEnv = { TRACEMILL_WORKERS: String(options.workers ?? 2), ...options.env };
  if (options.fake !== false) env.TRACEMILL_TEST_ENGINE_MODULE = fakeEngine;
  const app = await serve(options.dataDir ? ["--data", options.dataDir] : [], env, { launcher: options.launcher });
  // The server's own errors belong in the test log.
  app.process.stderr?.on("data", (chunk: Buffer) => process.stderr.write(chunk));
  return app;
}

export interface Answer<T = unknown> {
  status: number;
  body: T;
  headers: Headers;
}

/** A browser-like client: keeps the session cookie and sends the same-origin header a browser would. */
export class Client {
  cookie = "";
  constructor(readonly base: string) {}

  async raw(
    method: string,
    url: string,
    init: { body?: RequestInit["body"]; headers?: Record<string, string>; duplex?: "half" } = {},
  ) {
    const headers: Record<string, string> = { "Sec-Fetch-Site": "same-origin", ...init.headers };
    if (this.cookie) headers.Cookie = this.cookie;
    // A stream body needs duplex "half" (fetch sends it as it is produced; the DOM's RequestInit lacks the field).
    const request: RequestInit & { duplex?: "half" } = { method, headers, body: init.body, duplex: init.duplex };
    const response = await fetch(`${this.base}${url}`, request);
    const setCookie = response.headers.get("set-cookie");
    if (setCookie) {
      const pair = setCookie.split(";")[0];
      this.cookie = pair.endsWith("=") ? "" : pair;
    }
    return response;
  }

  // biome-ignore lint/suspicious/noExplicitAny: tests read JSON bodies loosely
  async call<T = any>(
    method: string,
    url: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ): Promise<Answer<T>> {
    const response = await this.raw(method, url, {
      body: body === undefined ? undefined : JSON.stringify(body),
      headers: body === undefined ? headers : { "Content-Type": "application/json", ...headers },
    });
    const text = await response.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      // Not JSON: the test reads the text.
    }
    return { status: response.status, body: parsed as T, headers: response.headers };
  }

  // biome-ignore lint/suspicious/noExplicitAny: tests read JSON bodies loosely
  async upload<T = any>(name: string, content: Buffer, url = "/api/files"): Promise<Answer<T>> {
    const form = new FormData();
    form.append("file", new Blob([new Uint8Array(content)]), name);
    const response = await this.raw("POST", url, { body: form });
    return { status: response.status, body: (await response.json()) as T, headers: response.headers };
  }

  /** Registers and signs in a fresh user. */
  async signUp(userName: string): Promise<{ email: string }> {
    const email = `${userName.toLowerCase()}-${Math.random().toString(36).slice(2)}@example.org`;
    const password = "correct horse battery";
    const registered = await this.call("POST", "/api/auth/register", {
      userName,
      email,
      password,
      Renewpassword: password,
    });
    if (registered.status !== 201) throw new Error(`register failed: ${JSON.stringify(registered.body)}`);
    const signedIn = await this.call("POST", "/api/auth/login", { email, password });
    if (signedIn.status !== 200) throw new Error(`login failed: ${JSON.stringify(signedIn.body)}`);
    return { email };
  }
}

/** Polls a job until it reaches one of the states (or fails the test after a timeout). */
// biome-ignore lint/suspicious/noExplicitAny: tests read JSON bodies loosely
export async function waitForStatus(client: Client, id: string, statuses: string[], timeoutMs = 20_000): Promise<any> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const { body } = await client.call("GET", `/api/jobs/${id}`);
    if (statuses.includes(body?.status)) return body;
    if (Date.now() > deadline) throw new Error(`job ${id} stayed ${body?.status}: ${JSON.stringify(body)}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Creates a job over one uploaded capture and waits until it has succeeded; its id. */
export async function finishedJob(
  client: Client,
  request: { capability: string; params: Record<string, unknown>; captureId: string; public?: boolean; title?: string },
): Promise<string> {
  const created = await client.call("POST", "/api/jobs", {
    title: request.title ?? `${request.capability} ${JSON.stringify(request.params)}`,
    public: request.public ?? false,
    capability: request.capability,
    params: request.params,
    inputs: { capture: { fileId: request.captureId } },
  });
  if (created.status !== 201) throw new Error(`job not created: ${JSON.stringify(created.body)}`);
  const job = await waitForStatus(client, created.body.id, ["succeeded", "failed", "cancelled"], 60_000);
  if (job.status !== "succeeded") throw new Error(`job ${job.id} ${job.status}: ${job.error}`);
  return job.id as string;
}
