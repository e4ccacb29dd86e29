// tracemill merge: injects an attack capture into a background capture (see docs/formats.md, "Aggregation and provenance").
import path from "node:path";
import { withResultWarnings } from "@tracemill/engine/result-warnings";
import { Command } from "commander";
import { interruptSignal } from "../interrupt.js";
import { outputFileOption, reportResultWarnings } from "./capability-output.js";

interface MergeCommandOptions {
  output?: string;
  at?: string;
  atTime?: string;
  sequential?: boolean;
  map: string[];
  recomputeChecksums?: boolean;
  json?: boolean;
}

export function mergeCommand(): Command {
  return new Command("merge")
    .description(
      "merge an attack capture into a background capture, shifted to one point of it, with a provenance record",
    )
    .argument("<background>", "the background (benign) capture")
    .argument("<attacks>", "the attack capture to inject")
    .option(
      "-o, --output <file>",
      "merged capture (default merged.pcap, or merged.pcapng when pcapng is needed)",
      outputFileOption,
    )
    .option("--at <seconds>", "place the first attack packet this many seconds after the background's first packet")
    .option(
      "--at-time <iso8601>",
      "place the first attack packet at this time (with a zone, e.g. 2023-11-14T22:13:20Z)",
    )
    .option("--sequential", "place the attacks right after the background's last packet")
    .option("--map <from=to>", "rewrite an attack address (repeatable; same family)", collect, [])
    .option("--recompute-checksums", "compute rewritten packets' transport checksums afresh instead of adjusting them")
    .option("--json", "print the summary as JSON")
    .action(async (background: string, attacks: string, options: MergeCommandOptions) => {
      const [{ parseAddressMapping }, { mergeCaptures }] = await Promise.all([
        import("@tracemill/core/edit"),
        import("@tracemill/engine/merge"),
      ]);
      const output = options.output ? path.resolve(options.output) : undefined;
      const result = await mergeCaptures(background, attacks, {
        outDir: output ? path.dirname(output) : process.cwd(),
        output: output ? path.basename(output) : undefined,
        at: options.at,
        atTime: options.atTime,
        sequential: options.sequential,
        mappings: options.map.map(parseAddressMapping),
        checksums: options.recomputeChecksums ? "recompute" : "adjust",
        signal: interruptSignal(),
      });
      const summaryFile = result.outputs.find((o) => o.kind === "summary-json")?.name;
      const report = () =>
        reportResultWarnings(
          result.summary,
          summaryFile && path.join(output ? path.dirname(output) : process.cwd(), summaryFile),
        );
      if (options.json) {
        process.stdout.write(`${JSON.stringify(withResultWarnings(result.summary), null, 2)}\n`);
        await report();
        return;
      }
      const s = result.summary as {
        packets: number;
        format: string;
        output: string;
        placement: { shiftSeconds: string; firstAttackPacketAt: string | null };
        outOfOrder: { background: number; attacks: number };
        provenance: string;
      };
      process.stdout.write(
        `${s.packets} packets written to ${s.output} (${s.format}); attacks shifted by ${s.placement.shiftSeconds} s, ` +
          `first attack packet at ${s.placement.firstAttackPacketAt ?? "-"}\n` +
          `out-of-order packets (put back in timestamp order): ${s.outOfOrder.background} background, ${s.outOfOrder.attacks} attacks\n` +
          `provenance: ${s.provenance}\n`,
      );
      await report();
    });
}

function collect(value: string, previous: string[]): string[] {
  return [...previous, value];
}
