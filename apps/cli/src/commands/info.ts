// tracemill info: what capinfos says about a capture, plus the decoder's view (docs/formats.md, "Input captures").
import { TracemillError } from "@tracemill/core/errors";
import type { CaptureSummary } from "@tracemill/engine/info";
import { Command } from "commander";
import { CAPTURE_HELP, captureArgument } from "./capability-output.js";

export function infoCommand(): Command {
  return new Command("info")
    .description("describe a capture: format, interfaces, packets, time span, bytes, IP/TCP/UDP counts, damage")
    .argument("<capture>", CAPTURE_HELP, captureArgument)
    .option("--json", "print one JSON object")
    .action(async (capture: string, options: { json?: boolean }) => {
      const { summarizeCapture } = await import("@tracemill/engine/info");
      const summary = await summarizeCapture(capture);
      process.stdout.write(options.json ? `${JSON.stringify(summary, null, 2)}\n` : text(summary));
      if (summary.damage) {
        throw new TracemillError("DAMAGED_INPUT", summary.damage.message, {
          file: capture,
          offset: summary.damage.offset,
        });
      }
    });
}

function text(s: CaptureSummary): string {
  const rows: [string, string][] = [
    ["File", s.file],
    [
      "Format",
      `${s.format}${s.version ? ` ${s.version}` : ""}${s.compressed ? " (gzip)" : ""}, ${s.byteOrder}, ${s.sections} section${s.sections === 1 ? "" : "s"}`,
    ],
    ...s.interfaces.map((i): [string, string] => [
      `Interface ${i.index}`,
      `${i.linkTypeName} (${i.linkType}), snaplen ${i.snaplen}, ${i.resolution}${i.name ? `, ${i.name}` : ""}${i.description ? ` (${i.description})` : ""}`,
    ]),
    ["Link types", s.linkTypes.map((l) => `${l.name} (${l.linkType}): ${l.packets}`).join(", ") || "-"],
    ["Packets", String(s.packets)],
    ["Bytes", `${s.bytes} on the wire, ${s.capturedBytes} captured`],
    ["First packet", s.first ?? "-"],
    ["Last packet", s.last ?? "-"],
    ["Duration", s.duration === null ? "-" : `${s.duration} s`],
    ["IPv4 / IPv6", `${s.ipv4} / ${s.ipv6}`],
    ["TCP / UDP / other", `${s.tcp} / ${s.udp} / ${s.other}`],
    ["Truncated", `${s.truncated} (cut before the ports: in no session), ${s.snapped} shorter than on the wire`],
    ["Malformed", String(s.malformed)],
    ...s.undecodedLinkTypes.map((l): [string, string] => [
      "Not decoded",
      `${l.name} (${l.linkType}): ${l.packets} packets, counted as other`,
    ]),
    ...s.comments.map((c): [string, string] => ["Comment", c]),
    ...(s.skippedRecords > 0 ? [["Skipped records", String(s.skippedRecords)] as [string, string]] : []),
    ...s.warnings.map((w): [string, string] => [
      "Warning",
      `${w.count > 1 ? `${w.count} records, first at byte ${w.offset}: ` : `at byte ${w.offset}: `}${w.message}`,
    ]),
    ["Complete", s.complete ? "yes" : `no: ${s.damage?.message}`],
  ];
  return rows.map(([k, v]) => `${`${k}:`.padEnd(20)}${v}\n`).join("");
}
