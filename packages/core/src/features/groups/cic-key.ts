// Flow ID, Source IP, Source Port, Destination IP, Destination Port, Protocol, Timestamp: CIC-IDS2017's first seven
// columns as CICFlowMeter writes them, the session key of a `--cic-compat` run (forward side = source).
import { formatIpAddress } from "../../net/ip-address.js";
import type { FeatureGroup } from "../feature-group.js";

const scratch = new Uint8Array(16);
const NS = 1e9;

/** Two digits, zero-padded. */
const two = (value: number) => (value < 10 ? `0${value}` : `${value}`);

/**
 * CICFlowMeter's Timestamp, `dd/MM/yyyy hh:mm:ss a` (BasicFlow.dumpFlowBasedFeaturesEx: a 12-hour clock from 12 to 11
 * and AM or PM, to the second), of the epoch second `sec` in UTC: CICFlowMeter takes the machine's zone, which a file
 * cannot be read back without.
 */
export function cicTimestamp(sec: number): string {
  const date = new Date(sec * 1000);
  const hours = date.getUTCHours();
  const year = date.getUTCFullYear();
  return (
    `${two(date.getUTCDate())}/${two(date.getUTCMonth() + 1)}/${year < 1000 ? String(year).padStart(4, "0") : year} ` +
    `${two(hours % 12 === 0 ? 12 : hours % 12)}:${two(date.getUTCMinutes())}:${two(date.getUTCSeconds())} ` +
    `${hours < 12 ? "AM" : "PM"}`
  );
}

/** The last second's text: sessions start close together, most in a second another one started in. */
let lastSecond = Number.NaN;
let lastText = "";

export const cicKey: FeatureGroup = {
  name: "cic-key",
  kind: "naming",
  columns: [
    { name: "Flow ID", type: "string" },
    { name: "Source IP", type: "string" },
    { name: "Source Port", type: "int" },
    { name: "Destination IP", type: "string" },
    { name: "Destination Port", type: "int" },
    { name: "Protocol", type: "int" },
    { name: "Timestamp", type: "string" },
  ],
  sideSlots: 0,
  flowSlots: 0,
  finish(_s, _fwd, _bwd, _flow, session, row) {
    const size = session.ipVersion === 4 ? 4 : 16;
    const source = formatIpAddress(session.address(true, scratch).subarray(0, size));
    const destination = formatIpAddress(session.address(false, scratch).subarray(0, size));
    const sourcePort = session.fwdPort;
    const destinationPort = session.bwdPort;
    // CICFlowMeter's flow id: the first packet's source, destination, ports and protocol (BasicPacketInfo.fwdFlowId).
    row.ascii(`${source}-${destination}-${sourcePort}-${destinationPort}-${session.protocol}`);
    row.ascii(source);
    row.int(sourcePort);
    row.ascii(destination);
    row.int(destinationPort);
    row.int(session.protocol);
    const second = session.baseSec + Math.floor(session.firstTime / NS);
    if (second !== lastSecond) {
      lastSecond = second;
      lastText = cicTimestamp(second);
    }
    row.ascii(lastText);
  },
};
