// An alerted flow whose flow record never came is taken from its alert's tuple, VLAN ids included: the session is
// that VLAN stack's only. IPv6 sessions are keyed by VLAN stack as IPv4 ones are. A settled flow's slot serves a later
// flow.
import { EveAlertFields, PacketDecoder } from "@tracemill/core";
import { expect, it } from "vitest";
import { capturedPacket, ethernet, ipv4, ipv6, tcp, udp, type VlanTag } from "../../../core/src/testing/index.js";
import { AlertedFlows } from "./alerted-flows.js";
import { AttackSessions } from "./attack-sessions.js";
import { vlanKey } from "./vlan-key.js";

it("settles an alert's flow on the alert's VLAN stack", () => {
  const alert = new EveAlertFields();
  alert.protocol = 6;
  alert.src.set([10, 0, 0, 1]);
  alert.dst.set([10, 0, 0, 2]);
  alert.srcPort = 40000;
  alert.dstPort = 80;
  alert.flowStartUs = 1_700_000_000_000_000;
  alert.vlanIds.set([100, 10]);
  alert.vlanCount = 2;
  const flows = new AlertedFlows();
  flows.noteAlert(alert, 42);
  const sessions = new AttackSessions();
  flows.settleByAlerts(sessions);

  const decoder = new PacketDecoder();
  const attack = (vlans: VlanTag[], tsSec: number) => {
    const frame = ethernet(ipv4({ src: "10.0.0.2", dst: "10.0.0.1" }, tcp({ srcPort: 80, dstPort: 40000 })), { vlans });
    return sessions.isAttack(decoder.decode(capturedPacket(frame, { linkType: 1, tsSec })), 1000, tsSec * 1e6);
  };
  expect(attack([{ id: 100 }, { id: 10 }], 1_700_000_001)).toBe(true);
  // Before the flow's start, on another stack, on the inner tag alone, untagged: not this session.
  expect(attack([{ id: 100 }, { id: 10 }], 1_699_999_999)).toBe(false);
  expect(attack([{ id: 100 }, { id: 20 }], 1_700_000_001)).toBe(false);
  expect(attack([{ id: 10 }], 1_700_000_001)).toBe(false);
  expect(attack([], 1_700_000_001)).toBe(false);
});

it("keys IPv6 sessions by VLAN stack too", () => {
  const sessions = new AttackSessions();
  const src = new Uint8Array(16).fill(1);
  const dst = new Uint8Array(16).fill(2);
  sessions.addFlow({
    protocol: 17,
    src,
    srcPort: 5353,
    dst,
    dstPort: 53,
    vlan: vlanKey(10, 0, 0),
    startUs: 0,
    endUs: 9e15,
  });
  const decoder = new PacketDecoder();
  const attack = (vlans: VlanTag[]) => {
    const datagram = ipv6(
      { src: "101:101:101:101:101:101:101:101", dst: "202:202:202:202:202:202:202:202" },
      udp({ srcPort: 5353, dstPort: 53 }),
    );
    return sessions.isAttack(
      decoder.decode(capturedPacket(ethernet(datagram, { vlans }), { linkType: 1 })),
      1000,
      1e15,
    );
  };
  expect([attack([{ id: 10 }]), attack([{ id: 20 }]), attack([])]).toEqual([true, false, false]);
});

it("gives a settled flow's slot to a later flow without mixing their tuples", () => {
  const alert = new EveAlertFields();
  alert.protocol = 6;
  alert.src.set([10, 0, 0, 1]);
  alert.dst.set([10, 0, 0, 2]);
  alert.srcPort = 40000;
  alert.dstPort = 80;
  alert.flowStartUs = 1_000_000;
  const flows = new AlertedFlows();
  const sessions = new AttackSessions();
  flows.noteAlert(alert, 1);
  // Flow 1's record: an interval that ends at 2 s.
  const record = {
    protocol: 6,
    src: new Uint8Array([10, 0, 0, 1]),
    srcPort: 40000,
    dst: new Uint8Array([10, 0, 0, 2]),
  };
  flows.settle(1, { ...record, dstPort: 80, vlan: 0, startUs: 1_000_000, endUs: 2_000_000 }, sessions);
  // Flow 2 (another port) takes the freed slot and never gets a record: open-ended from its start at 5 s.
  alert.dstPort = 443;
  alert.flowStartUs = 5_000_000;
  flows.noteAlert(alert, 2);
  // A late alert of the settled flow 1 changes nothing.
  alert.dstPort = 80;
  flows.noteAlert(alert, 1);
  expect([flows.wants(1), flows.wants(2)]).toEqual([false, true]);
  expect([...flows.unsettled()]).toEqual([2]);
  flows.settleByAlerts(sessions);

  const decoder = new PacketDecoder();
  const attack = (dstPort: number, tsSec: number) => {
    const frame = ethernet(ipv4({ src: "10.0.0.1", dst: "10.0.0.2" }, tcp({ srcPort: 40000, dstPort })));
    return sessions.isAttack(decoder.decode(capturedPacket(frame, { linkType: 1, tsSec })), 1000, tsSec * 1e6);
  };
  // Port 80: only within flow 1's record; port 443: from 5 s on, with no end.
  expect([attack(80, 1), attack(80, 3), attack(80, 6)]).toEqual([true, false, false]);
  expect([attack(443, 4), attack(443, 5), attack(443, 1000)]).toEqual([false, true, true]);
});
