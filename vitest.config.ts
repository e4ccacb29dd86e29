// Unit and integration tests of every workspace; browser end-to-end tests have their own config in e2e/.
import react from "@vitejs/plugin-react";
import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    // Two test files at a time on a two-core machine (Vitest's default leaves one core idle): most tests wait on child
    // processes, Suricata, databases or the disk, and running side by side also shakes out races between processes.
    maxWorkers: 2,
    projects: [
      {
        resolve: { conditions: ["source"] },
        ssr: { resolve: { conditions: ["source"] } },
        test: {
          name: "node",
          environment: "node",
          include: [
            "packages/*/src/**/*.test.ts",
            "apps/server/src/**/*.test.ts",
            "apps/server/test/**/*.test.ts",
            "apps/cli/src/**/*.test.ts",
            "apps/cli/test/**/*.test.ts",
            "test/**/*.test.ts",
          ],
          testTimeout: 60_000,
          hookTimeout: 120_000,
          // The test processes optimize as the product's processes do (PASS_PROCESS_FLAGS): on the thread that runs the
          // code, so no background compile outlives a worker thread the tests end (docs/architecture.md, "Worker threads").
          execArgv: ["--no-concurrent-recompilation"],
        },
      },
      {
        plugins: [react()],
        resolve: { conditions: ["source"] },
        test: {
          name: "web",
          environment: "jsdom",
          include: ["apps/web/src/**/*.test.tsx", "apps/web/src/**/*.test.ts"],
          setupFiles: ["apps/web/src/test-setup.ts"],
        },
      },
    ],
  },
});
