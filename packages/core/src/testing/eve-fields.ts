// For tests of EveAlertReader: its fields as plain values, and the values parseEveAlertLine (the reference) gives a line.

import type { ClassificationTable } from "../alerts/classification.js";
import { parseEveAlertLine } from "../alerts/eve-alert.js";
import type { EveAlertFields } from "../alerts/eve-alert-fields.js";
import { eveFlowKeyOfText } from "../alerts/eve-alert-fields.js";
import { parseIpAddress } from "../net/ip-address.js";

/** What EveAlertReader must give for a line, from parseEveAlertLine (which throws where the reader must). */
export function expectedEveFields(line: string, classifications?: ClassificationTable) {
  const alert = parseEveAlertLine(line, classifications);
  if (!alert) return undefined;
  const start = alert.flowStart ?? alert;
  const address = (text: string) => (alert.ipVersion === 0 ? [] : [...(parseIpAddress(text) as Uint8Array)]);
  return {
    tsSec: alert.tsSec,
    tsNsec: alert.tsNsec,
    protocol: alert.protocol,
    srcPort: alert.srcPort,
    dstPort: alert.dstPort,
    src: address(alert.src),
    dst: address(alert.dst),
    rule: {
      gid: alert.gid,
      sid: alert.sid,
      rev: alert.rev,
      classId: alert.classId,
      className: alert.className,
      priority: alert.priority,
      signature: alert.signature,
      blocked: alert.blocked,
    },
    vlan: alert.vlan ?? [],
    flowId: alert.flowId === undefined ? undefined : eveFlowKeyOfText(alert.flowId),
    flowStartUs: start.tsSec * 1_000_000 + Math.floor(start.tsNsec / 1000),
    packetNumber: alert.packetNumber ?? 0,
    packet: [...(alert.packet?.data ?? [])],
    linkType: alert.packet?.linkType ?? 1,
  };
}

/** The reader's fields in the shape of expectedEveFields. */
export function eveFieldValues(f: EveAlertFields | undefined) {
  if (!f) return undefined;
  return {
    tsSec: f.tsSec,
    tsNsec: f.tsNsec,
    protocol: f.protocol,
    srcPort: f.srcPort,
    dstPort: f.dstPort,
    src: [...f.src.subarray(0, f.addressLength)],
    dst: [...f.dst.subarray(0, f.addressLength)],
    rule: { ...f.rule },
    vlan: [...f.vlanIds.subarray(0, f.vlanCount)],
    flowId: f.flowId,
    flowStartUs: f.flowStartUs,
    packetNumber: f.packetNumber,
    packet: [...f.packet],
    linkType: f.linkType,
  };
}
