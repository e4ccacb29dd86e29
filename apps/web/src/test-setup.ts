// Test set-up for component tests: DOM matchers, a clean DOM between tests, room for a loaded shared machine, and the
// one browser API the app uses that jsdom lacks.
import "@testing-library/jest-dom/vitest";
import { cleanup, configure } from "@testing-library/react";
import { afterEach, vi } from "vitest";

// Every browser's Blob has stream() and arrayBuffer() (the wizard hashes picked files through them); jsdom's has not.
// These read with FileReader, which jsdom has: the stream 1 MiB at a time, so a test's file comes in several chunks.
const readSlice = (blob: Blob) =>
  new Promise<Uint8Array<ArrayBuffer>>((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(new Uint8Array(reader.result as ArrayBuffer));
    reader.onerror = () => reject(reader.error);
    reader.readAsArrayBuffer(blob);
  });
if (typeof Blob.prototype.arrayBuffer !== "function") {
  Blob.prototype.arrayBuffer = async function arrayBuffer(this: Blob) {
    return (await readSlice(this)).buffer;
  };
}
if (typeof Blob.prototype.stream !== "function") {
  const CHUNK = 1024 * 1024;
  Blob.prototype.stream = function stream(this: Blob) {
    let offset = 0;
    return new ReadableStream<Uint8Array<ArrayBuffer>>({
      pull: async (controller) => {
        if (offset >= this.size) return controller.close();
        controller.enqueue(await readSlice(this.slice(offset, offset + CHUNK)));
        offset += CHUNK;
      },
    });
  };
}

// Typing through user-event takes a timer tick per key; on a busy 2-core machine a form test can pass 5 s.
vi.setConfig({ testTimeout: 30_000 });
// The same machine runs two test files at once: a first findBy… of a file can outlast Testing Library's 1 s.
configure({ asyncUtilTimeout: 5000 });

afterEach(() => cleanup());
