// Definitions of the session key's columns and of the tracemill set's, in CSV order, for the Feature Set page (kept in
// step with docs/features.md; feature-columns.test.ts checks the names and order against that page). The server lists
// the sets and their columns; these add what a column means.
import type { FeatureSetInfo } from "@tracemill/contracts";

export interface FeatureColumn {
  name: string;
  definition: string;
  unit: string;
}

export type ColumnType = FeatureSetInfo["columns"][number]["type"];

const dirs = [
  ["f", "forward", "F"],
  ["b", "backward", "B"],
] as const;

function perDirection(make: (d: string, word: string) => FeatureColumn): FeatureColumn[] {
  return dirs.map(([d, word]) => make(d, word));
}

/** min, max, mean, std (with total first when given) of one quantity, forward first, then backward: the CSV order. */
function statsOf(suffix: string, what: string, unit: string, total?: string): FeatureColumn[] {
  return dirs.flatMap(([d, word]) => [
    ...(total ? [{ name: `total_${d}${suffix}`, definition: `${total}, ${word} packets`, unit }] : []),
    { name: `min_${d}${suffix}`, definition: `Smallest ${what}, ${word} packets`, unit },
    { name: `max_${d}${suffix}`, definition: `Largest ${what}, ${word} packets`, unit },
    { name: `mean_${d}${suffix}`, definition: `Mean ${what}, ${word} packets`, unit },
    { name: `std_${d}${suffix}`, definition: `Sample standard deviation of the ${what}, ${word} packets`, unit },
  ]);
}

const flag = (name: string): FeatureColumn => ({
  name: `flow_${name}`,
  definition: `Packets of the session, either direction, with the TCP ${name.toUpperCase()} flag set (0 for UDP)`,
  unit: "packets",
});

/** The session key: the first columns of every row, whichever sets a job chose (the server does not list them). */
export const sessionKeyColumns: (FeatureColumn & { type: ColumnType })[] = [
  { name: "protocol", type: "int", definition: "IANA protocol number: 6 for TCP, 17 for UDP", unit: "" },
  {
    name: "ts",
    type: "time",
    definition: "Time of the session's first packet, seconds since 1970-01-01 UTC",
    unit: "s",
  },
  {
    name: "srcIP",
    type: "string",
    definition:
      "Address of the forward side: the sender of the first packet (for a TCP session first seen at its SYN-ACK, the side that opened it); IPv4 dotted decimal, IPv6 as RFC 5952 text",
    unit: "",
  },
  { name: "srcPrt", type: "int", definition: "Port of the forward side", unit: "" },
  { name: "dstIP", type: "string", definition: "Address of the backward side", unit: "" },
  { name: "dstPrt", type: "int", definition: "Port of the backward side", unit: "" },
];

/** The tracemill set's columns, after the key. */
const tracemillColumns: FeatureColumn[] = [
  { name: "flowduration", definition: "Time of the last packet minus time of the first packet", unit: "s" },
  ...perDirection((d, word) => ({
    name: `total_${d}packets`,
    definition: `Number of ${word} packets`,
    unit: "packets",
  })),
  ...perDirection((d, word) => ({
    name: `total_${d}pktl`,
    definition: `Sum of the lengths of ${word} packets (IP length; frame length with the length option)`,
    unit: "bytes",
  })),
  ...statsOf("pktl", "packet length", "bytes"),
  ...statsOf(
    "ipt",
    "gap between consecutive packets",
    "s",
    "Sum of the gaps between consecutive packets (the last minus the first packet's time)",
  ),
  ...perDirection((d, word) => ({
    name: `${d}psh_cnt`,
    definition: `${cap(word)} packets with PSH set`,
    unit: "packets",
  })),
  ...perDirection((d, word) => ({
    name: `${d}urg_cnt`,
    definition: `${cap(word)} packets with URG set`,
    unit: "packets",
  })),
  ...perDirection((d, word) => ({
    name: `total_${d}hlen`,
    definition: `Sum of the header lengths of ${word} packets: IP header with options or extension headers, plus the TCP or UDP header`,
    unit: "bytes",
  })),
  ...perDirection((d, word) => ({
    name: `${d}PktsPerSecond`,
    definition: `${cap(word)} packets divided by flowduration (0 when the duration is 0)`,
    unit: "packets/s",
  })),
  {
    name: "flowBytesPerSecond",
    definition: "(total_fpktl + total_bpktl) divided by flowduration (0 when the duration is 0)",
    unit: "bytes/s",
  },
  { name: "mean_flowpktl", definition: "Mean packet length over both directions", unit: "bytes" },
  {
    name: "std_flowpktl",
    definition: "Sample standard deviation of the packet length, both directions",
    unit: "bytes",
  },
  { name: "mean_flowipt", definition: "Mean gap between consecutive packets, either direction", unit: "s" },
  { name: "std_flowipt", definition: "Sample standard deviation of the gaps, either direction", unit: "s" },
  ...["fin", "syn", "rst", "ack", "urg", "cwr", "ece"].map(flag),
  { name: "downUpRatio", definition: "total_bpktl divided by total_fpktl (0 when total_fpktl is 0)", unit: "" },
];

/** The column definitions known for a set, by the set's name. */
export const definitionsBySet: Readonly<Record<string, readonly FeatureColumn[]>> = { tracemill: tracemillColumns };

/** The columns of a features CSV with the tracemill set alone (SPEC.md §3's 50). */
export const featureColumns: FeatureColumn[] = [...sessionKeyColumns, ...tracemillColumns];

function cap(word: string): string {
  return word[0].toUpperCase() + word.slice(1);
}
