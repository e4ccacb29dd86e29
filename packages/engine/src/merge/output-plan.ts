// Decides the merged capture's format and interfaces from the two scanned inputs, as options of the capture writer.
import type { PcapngInterfaceOptions } from "@tracemill/core/capture";
import type { CaptureWriterOptions } from "../output/index.js";
import type { CaptureScan } from "./scan.js";

export interface OutputPlan {
  format: "pcap" | "pcapng";
  /** pcap: nanosecond timestamps. */
  nanosecond: boolean;
  /** pcapng: the attack input's interface i becomes output interface attackInterfaceOffset + i. */
  attackInterfaceOffset: number;
  interfaces: PcapngInterfaceOptions[];
  /** Timestamp step (ns) the attack packets are stored with: the shift is a multiple of it, so no gap changes. */
  attackStepNs: bigint;
  /** Why this format, for the summary. */
  reason: string;
}

/**
 * Two pcap inputs with one and the same link type give pcap (nanosecond when either input needs it); anything
 * else (a pcapng or ERF input, different or several link types) gives pcapng with every input interface kept.
 */
export function planOutput(background: CaptureScan, attacks: CaptureScan): OutputPlan {
  const linkTypes = new Set([...background.linkTypes, ...attacks.linkTypes]);
  const bothPcap = background.info.format === "pcap" && attacks.info.format === "pcap";
  const needsNs = (scan: CaptureScan) =>
    !scan.microsecondExact || scan.info.interfaces.some((iface) => iface.unitsPerSecond > 1e6);
  if (bothPcap && linkTypes.size <= 1) {
    const nanosecond = needsNs(background) || needsNs(attacks);
    return {
      format: "pcap",
      nanosecond,
      attackInterfaceOffset: 0,
      interfaces: [],
      attackStepNs: nanosecond ? 1n : 1000n,
      reason: `both inputs are pcap with one link type: pcap (${nanosecond ? "nanosecond" : "microsecond"} timestamps)`,
    };
  }
  const interfacesOf = (scan: CaptureScan): PcapngInterfaceOptions[] =>
    scan.info.interfaces.map((iface) => ({
      linkType: iface.linkType,
      snaplen: iface.snaplen,
      name: iface.name,
      description: iface.description,
      tsresol: needsNs(scan) ? 9 : 6,
    }));
  const backgroundInterfaces = interfacesOf(background);
  return {
    format: "pcapng",
    nanosecond: true,
    attackInterfaceOffset: backgroundInterfaces.length,
    interfaces: [...backgroundInterfaces, ...interfacesOf(attacks)],
    attackStepNs: needsNs(attacks) ? 1n : 1000n,
    reason:
      linkTypes.size > 1
        ? `the inputs have different link types (${[...linkTypes].join(", ")}): pcapng with one interface per input interface`
        : "an input is not classic pcap: pcapng keeping its interfaces, comments and snaplens",
  };
}

/** The options of engine/output's atomic writer for the planned output. */
export function writerOptions(plan: OutputPlan, background: CaptureScan, attacks: CaptureScan): CaptureWriterOptions {
  if (plan.format === "pcap") {
    const snaplen = Math.max(...[background, attacks].flatMap((scan) => scan.info.interfaces.map((i) => i.snaplen)), 0);
    return {
      format: "pcap",
      linkType: background.linkTypes[0] ?? attacks.linkTypes[0] ?? 1,
      snaplen: snaplen || undefined,
      nanosecond: plan.nanosecond,
    };
  }
  return {
    format: "pcapng",
    interfaces: plan.interfaces,
    comments: [...background.info.comments, ...attacks.info.comments],
  };
}

/** The input's records can be copied into the planned pcap output unchanged. */
export function copiesVerbatim(
  info: {
    format: string;
    byteOrder: string;
    interfaces: { unitsPerSecond: number }[];
    warnings?: readonly { code: string }[];
  },
  nanosecondOutput: boolean,
): boolean {
  const units = nanosecondOutput ? 1e9 : 1e6;
  return (
    info.format === "pcap" &&
    info.byteOrder === "little-endian" &&
    info.interfaces.length === 1 &&
    info.interfaces[0].unitsPerSecond === units &&
    // A record whose timestamp was carried is rewritten, not copied as it stands.
    !(info.warnings ?? []).some((w) => w.code === "timestamp-carried")
  );
}
