// Profile's uploads: each listed once with its size, format, upload time and use (the jobs that read it, linked, or
// "Unused"), and a Delete, after a confirmation, for an upload no job reads.
import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import type { ListedUpload } from "@tracemill/contracts";
import { afterEach, describe, expect, it, vi } from "vitest";
import { alice, fakeServer, jobPage, renderApp } from "../test-utils.js";

afterEach(() => vi.unstubAllGlobals());

const upload = (id: string, name: string, usedBy: ListedUpload["usedBy"], extra: Partial<ListedUpload> = {}) => ({
  id,
  name,
  size: 3 * 1024 * 1024,
  sha256: id.padEnd(64, "0"),
  format: "pcap" as const,
  compression: null,
  createdAt: "2026-01-01T10:00:00Z",
  usedBy,
  ...extra,
});

function server(answerDelete: () => { status: number; body?: unknown }) {
  let files = [
    upload("a", "web.pcap", [
      { id: "j2", title: "Labels" },
      { id: "j1", title: "Features" },
    ]),
    upload("b", "alerts.u2.gz", [], { format: "unified2" as never, compression: "gzip", size: 512 }),
    upload("c", "old.pcapng", [], { format: "pcapng" as never }),
  ];
  const calls = fakeServer({
    "GET /api/auth/session": () => ({ body: alice }),
    "GET /api/jobs": (_, url) => ({ body: jobPage([], url) }),
    "GET /api/files": () => ({ body: files }),
    "DELETE /api/files/c": () => {
      const answer = answerDelete();
      if (answer.status === 204) files = files.filter((f) => f.id !== "c");
      return answer;
    },
  });
  return calls;
}

const rowOf = (name: string) => screen.findByRole("row", { name: new RegExp(name.replace(".", "\\.")) });

describe("Profile's uploads", () => {
  it("lists each upload with its format, size and use: the jobs that read it as links, or Unused", async () => {
    server(() => ({ status: 204 }));
    renderApp("/ui/profile");
    const used = within(await rowOf("web.pcap"));
    expect(used.getByText("3.0 MiB")).toBeInTheDocument();
    expect(used.getByText("pcap")).toBeInTheDocument();
    expect(used.getByRole("cell", { name: /^Used by 2 jobs: Labels, Features$/ })).toBeInTheDocument();
    expect(used.getByRole("link", { name: "Labels" })).toHaveAttribute("href", "/ui/details?id=j2");
    expect(used.getByRole("link", { name: "Features" })).toHaveAttribute("href", "/ui/details?id=j1");
    // A file jobs read cannot be deleted from here.
    expect(used.queryByRole("button", { name: /Delete/ })).toBeNull();
    const unused = within(await rowOf("alerts.u2.gz"));
    expect(unused.getByText("unified2 (gzip)")).toBeInTheDocument();
    expect(unused.getByText("512 B")).toBeInTheDocument();
    expect(unused.getByText("Unused")).toBeInTheDocument();
    expect(unused.getByRole("button", { name: "Delete alerts.u2.gz" })).toBeInTheDocument();
    expect(screen.getAllByRole("row")).toHaveLength(4);
  });

  it("deletes an unused upload after a confirmation, then lists it no more", async () => {
    const calls = server(() => ({ status: 204 }));
    renderApp("/ui/profile");
    const row = within(await rowOf("old.pcapng"));
    await userEvent.click(row.getByRole("button", { name: "Delete old.pcapng" }));
    // Keep takes the question back; nothing is sent.
    await userEvent.click(row.getByRole("button", { name: "Keep" }));
    expect(calls.some((c) => c.method === "DELETE")).toBe(false);
    await userEvent.click(row.getByRole("button", { name: "Delete old.pcapng" }));
    expect(row.getByRole("group", { name: "Delete “old.pcapng”?" })).toBeInTheDocument();
    await userEvent.click(row.getByRole("button", { name: "Yes, delete" }));
    expect(await screen.findByText("Deleted old.pcapng.")).toHaveAttribute("role", "status");
    await waitFor(() => expect(screen.queryByRole("row", { name: /old\.pcapng/ })).toBeNull());
    expect(calls.filter((c) => c.method === "DELETE").map((c) => c.path)).toEqual(["/api/files/c"]);
  });

  it("says why the server refused a delete (a job took the file meanwhile)", async () => {
    server(() => ({
      status: 409,
      body: { messages: ["old.pcapng is an input of 1 job: it can be deleted once no job uses it"] },
    }));
    renderApp("/ui/profile");
    const row = within(await rowOf("old.pcapng"));
    await userEvent.click(row.getByRole("button", { name: "Delete old.pcapng" }));
    await userEvent.click(row.getByRole("button", { name: "Yes, delete" }));
    expect(await screen.findByRole("alert")).toHaveTextContent(
      "old.pcapng is an input of 1 job: it can be deleted once no job uses it",
    );
    expect(screen.getByRole("row", { name: /old\.pcapng/ })).toBeInTheDocument();
  });
});
