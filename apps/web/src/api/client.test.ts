// The API client: multipart uploads with progress, JSON calls with credentials, server messages from failures.
import { afterEach, describe, expect, it, vi } from "vitest";
import { ApiError, api, messagesOf } from "./client.js";

afterEach(() => vi.unstubAllGlobals());

/** Stands in for XMLHttpRequest: the test decides the progress events and the answer. */
class FakeXhr {
  static last: FakeXhr;
  upload: { onprogress: ((e: { lengthComputable: boolean; loaded: number; total: number }) => void) | null } = {
    onprogress: null,
  };
  onload: (() => void) | null = null;
  onerror: (() => void) | null = null;
  status = 0;
  responseText = "";
  withCredentials = false;
  method = "";
  url = "";
  sent: FormData | undefined;
  constructor() {
    FakeXhr.last = this;
  }
  open(method: string, url: string) {
    this.method = method;
    this.url = url;
  }
  send(body: FormData) {
    this.sent = body;
  }
  answer(status: number, body: unknown) {
    this.status = status;
    this.responseText = JSON.stringify(body);
    this.onload?.();
  }
}

describe("api client", () => {
  it("uploads as multipart field 'file' with credentials and reports progress", async () => {
    vi.stubGlobal("XMLHttpRequest", FakeXhr);
    const seen: number[] = [];
    const done = api.upload(new File(["abc"], "a.pcap"), (f) => seen.push(f));
    const xhr = FakeXhr.last;
    expect([xhr.method, xhr.url, xhr.withCredentials]).toEqual(["POST", "/api/files", true]);
    expect((xhr.sent!.get("file") as File).name).toBe("a.pcap");
    xhr.upload.onprogress?.({ lengthComputable: true, loaded: 1, total: 4 });
    xhr.upload.onprogress?.({ lengthComputable: true, loaded: 4, total: 4 });
    xhr.answer(201, { id: "f1", name: "a.pcap" });
    await expect(done).resolves.toMatchObject({ id: "f1" });
    expect(seen).toEqual([0.25, 1, 1]);
  });

  it("turns a refused upload into the server's messages", async () => {
    vi.stubGlobal("XMLHttpRequest", FakeXhr);
    const done = api.upload(new File(["abc"], "a.pcap"), () => {});
    FakeXhr.last.answer(413, { messages: ["The file is too large"] });
    const error = await done.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(messagesOf(error)).toEqual(["The file is too large"]);
  });

  it("sends JSON with credentials and reads {messages} from failures, or none from an empty body", async () => {
    const fetchMock = vi
      .fn()
      .mockResolvedValueOnce(new Response(JSON.stringify({ messages: ["Title is required"] }), { status: 400 }))
      .mockResolvedValueOnce(new Response(null, { status: 500 }))
      .mockResolvedValueOnce(new Response(null, { status: 204 }));
    vi.stubGlobal("fetch", fetchMock);
    const first = await api.createJob({ title: "", capability: "extract", inputs: {} }).catch((e: unknown) => e);
    expect(messagesOf(first)).toEqual(["Title is required"]);
    expect(fetchMock.mock.calls[0][1]).toMatchObject({ method: "POST", credentials: "include" });
    const second = await api.myJobs().catch((e: unknown) => e);
    expect((second as ApiError).status).toBe(500);
    expect(messagesOf(second)).toEqual([]);
    await expect(api.deleteJob("a/b")).resolves.toBeUndefined();
    expect(fetchMock.mock.calls[2][0]).toBe("/api/jobs/a%2Fb");
  });
});
