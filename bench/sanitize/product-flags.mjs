// Runs the calling bench again, at once, with the Node flags the product's processes start with (the CLI's first line,
// the server's job processes: PASS_PROCESS_FLAGS), unless it has them: sanitization is measured as it runs there.
import { spawnSync } from "node:child_process";
import { PASS_PROCESS_FLAGS } from "../../packages/engine/dist/index.js";

export function withProductFlags(script) {
  if (PASS_PROCESS_FLAGS.every((flag) => process.execArgv.includes(flag))) return;
  const again = spawnSync(
    process.execPath,
    [...PASS_PROCESS_FLAGS, ...process.execArgv, script, ...process.argv.slice(2)],
    {
      stdio: "inherit",
    },
  );
  process.exit(again.status ?? 1);
}
