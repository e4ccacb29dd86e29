// The tracemill command: builds the program, runs it, and maps errors to exit statuses (0 ok, 1 user error, 2 bad usage).
import { CommanderError } from "commander";
import { interrupted } from "./interrupt.js";
import { buildProgram } from "./program.js";
import { reportError } from "./report-error.js";

export async function main(argv: string[]): Promise<number> {
  const debug = argv.includes("--debug");
  // An error raised outside the command's promise (an 'error' event nobody listened to) is reported the same way.
  const uncaught = (error: unknown) => {
    reportError(error, debug);
    process.exit(1);
  };
  process.on("uncaughtException", uncaught);
  process.on("unhandledRejection", uncaught);
  const program = buildProgram();
  try {
    await program.parseAsync(argv, { from: "user" });
    return 0;
  } catch (error) {
    if (error instanceof CommanderError) {
      // --help and --version end here with code 0; usage errors were already printed by commander.
      return error.exitCode === 0 ? 0 : 2;
    }
    if (interrupted()) {
      process.stderr.write("tracemill: interrupted; no partial output was kept\n");
      return 130;
    }
    reportError(error, debug);
    return 1;
  }
}
