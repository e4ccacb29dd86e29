// Test set-up for component tests: DOM matchers, a clean DOM between tests, and room for a loaded shared machine.
import "@testing-library/jest-dom/vitest";
import { cleanup } from "@testing-library/react";
import { afterEach, vi } from "vitest";

// Typing through user-event takes a timer tick per key; on a busy 2-core machine a form test can pass 5 s.
vi.setConfig({ testTimeout: 30_000 });

afterEach(() => cleanup());
