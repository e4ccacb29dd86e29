// Malformed requests against a real server, signed out and signed in: bad multipart bodies, cut-off bodies, bad
// JSON, wrong content types, oversized headers and bodies, garbage instead of HTTP. Each answers 4xx with the usual
// shape ({messages}, or a bare list on the original product's calls), never 5xx; signed out, a call that needs a
// user answers 401 before its body is read. The server answers normally afterwards.
import net from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ServedApp } from "../../cli/test/run-cli.js";
import { Client, fixture, startServer } from "./server-harness.js";

let app: ServedApp;
let port: number;
let cookie = "";

beforeAll(async () => {
  app = await startServer();
  port = Number(new URL(app.url).port);
  const client = new Client(app.url);
  await client.signUp("Malformed");
  cookie = client.cookie;
});
afterAll(async () => {
  await app?.stop();
});

interface RawAnswer {
  status: number;
  body: string;
}

/** Sends bytes as they are over a fresh connection and reads the answer until the server closes it. */
function send(request: Buffer | string, options: { halfClose?: boolean } = {}): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, "127.0.0.1");
    const chunks: Buffer[] = [];
    socket.on("data", (chunk) => chunks.push(chunk));
    socket.on("error", reject);
    socket.on("close", () => {
      const text = Buffer.concat(chunks).toString("latin1");
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1] ?? 0);
      resolve({ status, body: text.slice(text.indexOf("\r\n\r\n") + 4) });
    });
    socket.write(request);
    if (options.halfClose) socket.end();
  });
}

interface Call {
  method: string;
  path: string;
  type?: string;
  body?: string | Buffer;
  /** Content-Length to declare instead of the body's length (a body cut off). */
  length?: number;
  headers?: string;
}

function request(call: Call, signedIn: boolean): Buffer {
  const body = call.body === undefined ? Buffer.alloc(0) : Buffer.from(call.body);
  const lines = [
    `${call.method} ${call.path} HTTP/1.1`,
    `Host: 127.0.0.1:${port}`,
    "Connection: close",
    `Content-Length: ${call.length ?? body.length}`,
  ];
  if (call.type) lines.push(`Content-Type: ${call.type}`);
  if (signedIn) lines.push(`Cookie: ${cookie}`);
  if (call.headers) lines.push(call.headers);
  return Buffer.concat([Buffer.from(`${lines.join("\r\n")}\r\n\r\n`, "latin1"), body]);
}

const boundary = "b0undary";
const multipart = `multipart/form-data; boundary=${boundary}`;
const filePart = (name: string) =>
  `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\n` +
  "Content-Type: application/octet-stream\r\n\r\n";
const pcapStart = Buffer.from(fixture("raw101_ipv4.pcap").subarray(0, 200));

/** [what, call, status signed out, status signed in] */
const cases: [string, Call, number, number][] = [
  [
    "multipart without a boundary",
    { method: "POST", path: "/api/files", type: "multipart/form-data", body: "x" },
    401,
    400,
  ],
  [
    "multipart with garbage for a body",
    { method: "POST", path: "/api/files", type: multipart, body: "garbage\r\n" },
    401,
    400,
  ],
  [
    "a file part cut off before its closing boundary",
    {
      method: "POST",
      path: "/api/files",
      type: multipart,
      body: Buffer.concat([Buffer.from(filePart("a.pcap")), pcapStart]),
    },
    401,
    400,
  ],
  [
    "a part whose headers never end",
    { method: "POST", path: "/api/files", type: multipart, body: `--${boundary}\r\nContent-Disposition: form-da` },
    401,
    400,
  ],
  [
    "a part header without a name",
    {
      method: "POST",
      path: "/api/files",
      type: multipart,
      body: `--${boundary}\r\nX: y\r\n\r\ndata\r\n--${boundary}--\r\n`,
    },
    401,
    400,
  ],
  [
    "the original /upfile with a cut-off part",
    {
      method: "POST",
      path: "/upfile",
      type: multipart,
      body: Buffer.concat([Buffer.from(filePart("a.pcap")), pcapStart]),
    },
    401,
    400,
  ],
  ["JSON to the upload call", { method: "POST", path: "/api/files", type: "application/json", body: "{}" }, 401, 400],
  ["bad JSON for a job", { method: "POST", path: "/api/jobs", type: "application/json", body: '{"title":' }, 401, 400],
  ["XML for a job", { method: "POST", path: "/api/jobs", type: "application/xml", body: "<job/>" }, 401, 415],
  ["bad JSON to the original /new", { method: "POST", path: "/new", type: "application/json", body: "{" }, 401, 400],
  [
    "bad JSON to an original capability call",
    { method: "POST", path: "/extract/features", type: "application/json", body: "[1," },
    401,
    400,
  ],
  [
    "bad JSON for a sign-in",
    { method: "POST", path: "/api/auth/login", type: "application/json", body: "{" },
    400,
    400,
  ],
  [
    "a form for a sign-in",
    { method: "POST", path: "/singin", type: "application/x-www-form-urlencoded", body: "a=b" },
    415,
    415,
  ],
  [
    "a list for a registration",
    { method: "POST", path: "/api/auth/register", type: "application/json", body: "[]" },
    400,
    400,
  ],
  [
    "bad JSON to the original /dowload",
    { method: "POST", path: "/dowload", type: "application/json", body: "nul" },
    400,
    400,
  ],
  [
    "bad JSON for a job change",
    { method: "PATCH", path: "/api/jobs/x", type: "application/json", body: "{,}" },
    400,
    400,
  ],
  [
    // Declared, not sent: the server answers from the Content-Length and closes, and a body still arriving at a
    // closed socket would make its kernel reset the connection, which may discard the answer before it is read.
    "a JSON body over the 1 MB limit",
    { method: "POST", path: "/api/auth/login", type: "application/json", body: "", length: 1_100_002 },
    413,
    413,
  ],
  [
    "headers over Node's 16 KB",
    { method: "GET", path: "/api/health", headers: `X-Big: ${"a".repeat(20_000)}` },
    431,
    431,
  ],
];

describe("malformed requests", () => {
  for (const signedIn of [false, true]) {
    for (const [what, call, whenOut, whenIn] of cases) {
      const expected = signedIn ? whenIn : whenOut;
      it(`${signedIn ? "signed in" : "signed out"}: ${what} → ${expected}`, async () => {
        const answer = await send(request(call, signedIn));
        expect(answer.status).toBe(expected);
        const parsed = JSON.parse(answer.body);
        // The original product's calls answer a bare list, the rest {messages}; either way readable texts.
        const messages: unknown = call.path.startsWith("/api/") || expected === 431 ? parsed.messages : parsed;
        expect(Array.isArray(messages) && messages.length > 0).toBe(true);
        for (const message of messages as unknown[]) expect(typeof message).toBe("string");
        if (expected === 401) expect(messages).toEqual(["Please sign in"]);
      });
    }
  }

  it("answers a body cut off by the client's end of sending with 400", async () => {
    const call = { method: "POST", path: "/api/jobs", type: "application/json", body: '{"title":"x"', length: 100 };
    const answer = await send(request(call, true), { halfClose: true });
    expect(answer.status).toBe(400);
    expect(JSON.parse(answer.body).messages).toHaveLength(1);
  });

  it("answers garbage instead of a request line with 400", async () => {
    const answer = await send("NOT HTTP AT ALL\r\n\r\n");
    expect(answer.status).toBe(400);
    expect(JSON.parse(answer.body)).toEqual({ messages: ["The request could not be read as HTTP"] });
  });

  it("still answers and stores uploads afterwards", async () => {
    const client = new Client(app.url);
    client.cookie = cookie;
    expect((await client.call("GET", "/api/health")).status).toBe(200);
    const upload = await client.upload("raw101_ipv4.pcap", fixture("raw101_ipv4.pcap"));
    expect(upload.status).toBe(201);
    // None of the refused uploads left a file behind.
    expect((await client.call("GET", "/api/files")).body).toHaveLength(1);
  });
});
