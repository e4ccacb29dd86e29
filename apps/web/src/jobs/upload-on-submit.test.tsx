// Files picked in a wizard go to the server only when the job is created: picking checks a file and keeps it in the
// draft; Create hashes each, asks the server which it holds, uploads the others, then creates the job. A file the
// server holds is not uploaded; a failed upload is said at its file's field, on its step, and no job is created.
import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import type { UploadedFile } from "@tracemill/contracts";
import { afterEach, describe, expect, it, vi } from "vitest";
import { ApiError, api } from "../api/client.js";
import { choose, createdJob, noneStored, pcapBytes, renderApp, uploadedAs, wizardServer } from "../test-utils.js";

afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
});

/** The SHA-256 of some bytes by WebCrypto's one-shot digest: not the wizard's own (incremental) hashing. */
async function sha256(bytes: Uint8Array): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes as BufferSource));
  return [...digest].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/** A server that records, in order, the look-ups, uploads and job creations the wizard makes. */
function server(log: string[], lookup = noneStored) {
  return wizardServer({
    routes: {
      "POST /api/files/lookup": (body, url) => {
        log.push("lookup");
        return lookup(body, url);
      },
      "POST /api/jobs": (body) => {
        log.push("create");
        return { status: 201, body: { ...(body as object), id: "job-1" } };
      },
    },
  });
}

/** Uploads answer file-1, file-2, … in order; a file named in `failing` is refused with the server's message. */
function uploads(log: string[], failing: Record<string, string> = {}) {
  let n = 0;
  return vi.spyOn(api, "upload").mockImplementation(async (file, onProgress) => {
    log.push(`upload ${file.name}`);
    const refusal = failing[file.name];
    if (refusal) throw new ApiError(400, [refusal]);
    onProgress(1);
    return uploadedAs(file, `file-${++n}`);
  });
}

const created = (calls: ReturnType<typeof server>) => createdJob(calls) as { inputs: unknown } | undefined;
const currentStep = () => screen.getByRole("list", { name: "Steps" }).querySelector("[aria-current=step]");

describe("uploads on submit", () => {
  it("picking only checks a file; Create hashes it, asks the server, uploads it, then creates the job", async () => {
    const log: string[] = [];
    const calls = server(log);
    const upload = uploads(log);
    const bytes = pcapBytes(7);
    renderApp("/ui/extract");
    await userEvent.type(await screen.findByLabelText("Title"), "Features");
    await choose("Capture", "monday.pcap", bytes);
    expect(screen.getByTestId("picked-file")).toHaveTextContent("monday.pcap (24 B) — sent when the job is created");
    await userEvent.click(screen.getByRole("button", { name: "Next" }));
    // Picked and past its step, and still nothing has gone to the server.
    expect(upload).not.toHaveBeenCalled();
    expect(log).toEqual([]);
    await userEvent.click(screen.getByRole("button", { name: "Create job" }));
    await waitFor(() => expect(screen.getByTestId("location")).toHaveTextContent("/ui/dataSets"));
    expect(log).toEqual(["lookup", "upload monday.pcap", "create"]);
    const asked = calls.find((c) => c.path === "/api/files/lookup")?.body;
    expect(asked).toEqual({ files: [{ sha256: await sha256(bytes), size: 24 }] });
    expect(created(calls)?.inputs).toEqual({ capture: { fileId: "file-1" } });
  });

  it("a file the server already holds is not uploaded: the job names the stored one; identical files go up once", async () => {
    const log: string[] = [];
    const held = pcapBytes(1);
    const heldSha256 = await sha256(held);
    const stored: UploadedFile = { ...uploadedAs(new File([], "monday.pcap"), "stored-1"), sha256: heldSha256 };
    const calls = server(log, (body) => ({
      body: {
        files: (body as { files: { sha256: string }[] }).files.map((f) => (f.sha256 === heldSha256 ? stored : null)),
      },
    }));
    uploads(log);
    renderApp("/ui/extract");
    await userEvent.type(await screen.findByLabelText("Title"), "Week");
    await choose("Capture", "monday again.pcap", held);
    await choose("Another capture (optional: one job over several)", "tuesday.pcap", pcapBytes(2));
    await choose("Another capture", "tuesday copy.pcap", pcapBytes(2));
    await userEvent.click(screen.getByRole("button", { name: "Next" }));
    await userEvent.click(screen.getByRole("button", { name: "Create job" }));
    await waitFor(() => expect(created(calls)).toBeDefined());
    expect(log).toEqual(["lookup", "upload tuesday.pcap", "create"]);
    expect(created(calls)?.inputs).toEqual({
      capture: [{ fileId: "stored-1" }, { fileId: "file-1" }, { fileId: "file-1" }],
    });
  });

  it("a failed upload is said at its file's field and no job is created; Create again sends only the new file", async () => {
    const log: string[] = [];
    const calls = server(log);
    const refusal = "attack.pcap: The pcap file has an unsupported version 1 (expected 2.4)";
    uploads(log, { "attack.pcap": refusal });
    renderApp("/ui/merge");
    await userEvent.type(await screen.findByLabelText("Title"), "Mix");
    await choose("Background capture (attack-free)", "background.pcap", pcapBytes(1));
    await userEvent.click(screen.getByRole("button", { name: "Next" }));
    await choose("Attack capture", "attack.pcap", pcapBytes(2));
    await userEvent.click(screen.getByRole("button", { name: "Create job" }));
    const attackField = screen.getByRole("group", { name: "Attack capture" });
    expect(await within(attackField).findByRole("alert")).toHaveTextContent(refusal);
    // Said once, at the field: no banner repeats it.
    expect(screen.getAllByText(refusal)).toHaveLength(1);
    expect(log).toEqual(["lookup", "upload background.pcap", "upload attack.pcap"]);
    expect(created(calls)).toBeUndefined();

    await choose("Attack capture", "attack-v2.pcap", pcapBytes(3));
    expect(within(attackField).queryByRole("alert")).toBeNull();
    await userEvent.click(screen.getByRole("button", { name: "Create job" }));
    await waitFor(() => expect(created(calls)).toBeDefined());
    // The background went up on the first try and is not sent again.
    expect(log.slice(3)).toEqual(["lookup", "upload attack-v2.pcap", "create"]);
    expect(created(calls)?.inputs).toEqual({ background: { fileId: "file-1" }, attacks: { fileId: "file-2" } });
  });

  it("a failed upload of a file picked on an earlier step goes back to that step and says it there", async () => {
    const log: string[] = [];
    const calls = server(log);
    uploads(log, { "big.pcap": "big.pcap: the data disk is full; nothing was kept" });
    renderApp("/ui/extract");
    await userEvent.type(await screen.findByLabelText("Title"), "Features");
    await choose("Capture", "big.pcap", pcapBytes(1));
    await userEvent.click(screen.getByRole("button", { name: "Next" }));
    expect(currentStep()).toHaveTextContent("2. Parameters");
    await userEvent.click(screen.getByRole("button", { name: "Create job" }));
    await waitFor(() => expect(currentStep()).toHaveTextContent("1. General"));
    expect(within(screen.getByRole("group", { name: "Capture" })).getByRole("alert")).toHaveTextContent(
      "big.pcap: the data disk is full; nothing was kept",
    );
    expect(created(calls)).toBeUndefined();
  });

  it("a failed upload of a further capture is said in its row of the list", async () => {
    const log: string[] = [];
    const calls = server(log);
    uploads(log, { "tuesday.pcap": "tuesday.pcap: the upload was cut off or malformed (aborted); nothing was kept" });
    renderApp("/ui/extract");
    await userEvent.type(await screen.findByLabelText("Title"), "Week");
    await choose("Capture", "monday.pcap", pcapBytes(1));
    await choose("Another capture (optional: one job over several)", "tuesday.pcap", pcapBytes(2));
    await userEvent.click(screen.getByRole("button", { name: "Next" }));
    await userEvent.click(screen.getByRole("button", { name: "Create job" }));
    await waitFor(() => expect(currentStep()).toHaveTextContent("1. General"));
    const row = within(screen.getByRole("list", { name: "Further captures" })).getByRole("listitem");
    expect(within(row).getByRole("alert")).toHaveTextContent("tuesday.pcap: the upload was cut off or malformed");
    expect(created(calls)).toBeUndefined();
  });
});
