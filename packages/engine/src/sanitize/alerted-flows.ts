// The flows one Suricata run alerted on, by flow id, until their flow records come: each alert's own tuple is kept
// as a fallback in typed arrays (a run may count hundreds of thousands of alerts), and a flow is settled once its
// record has been given to the attack sessions.
import type { EveAlertFields } from "@tracemill/core";
import type { AttackFlow, AttackSessions } from "./attack-sessions.js";
import type { FlowKey } from "./eve-files.js";
import { FlowIdTable } from "./flow-id-table.js";
import { vlanKeyOfIds } from "./vlan-key.js";

const SETTLED = -1;

/** 64 bytes per slot: protocol, source port, destination port, address length (4 × 32 bits), start (a double),
 * source address (16 bytes), destination address (16 bytes), VLAN stack (a double): one alert's tuple in about one
 * cache line. */
const SLOT_BYTES = 64;

export class AlertedFlows {
  /** Slot of each flow's fallback tuple; SETTLED once its flow record was used. */
  private readonly slots = new FlowIdTable();
  private count = 0;
  /**
   * Slots of settled flows, taken again by new ones: flow records come when their flows end, so few flows wait at
   * once, and every megabyte of slots a run touches first costs page faults.
   */
  private readonly free: number[] = [];
  private ints = new Int32Array(0);
  private doubles = new Float64Array(0);
  private bytes = new Uint8Array(0);

  constructor() {
    this.allocate(1024);
  }

  /** True while the flow has alerted and its record has not been used: the flow reader parses only these. */
  readonly wants = (id: FlowKey): boolean => (this.slots.get(id) ?? SETTLED) !== SETTLED;

  /** Keeps the alert's tuple from its flow's start on; a later alert of the same flow replaces it. */
  noteAlert(alert: EveAlertFields, id: FlowKey): void {
    let slot = this.slots.get(id);
    if (slot === SETTLED) return;
    if (slot === undefined) {
      slot = this.free.pop() ?? this.count++;
      if (slot === this.doubles.length / 8) this.grow();
      this.slots.set(id, slot);
    }
    const ints = this.ints;
    ints[16 * slot] = alert.protocol;
    ints[16 * slot + 1] = alert.srcPort;
    ints[16 * slot + 2] = alert.dstPort;
    ints[16 * slot + 3] = alert.addressLength;
    this.doubles[8 * slot + 2] = alert.flowStartUs;
    this.doubles[8 * slot + 7] = vlanKeyOfIds(alert.vlanIds, alert.vlanCount);
    const at = SLOT_BYTES * slot + 24;
    const bytes = this.bytes;
    for (let i = 0; i < alert.addressLength; i++) {
      bytes[at + i] = alert.src[i];
      bytes[at + 16 + i] = alert.dst[i];
    }
  }

  /** Adds the flow record of an alerted flow to the sessions (once). */
  settle(id: FlowKey, flow: AttackFlow, sessions: AttackSessions): void {
    const slot = this.slots.get(id) ?? SETTLED;
    if (slot === SETTLED) return;
    this.slots.set(id, SETTLED);
    this.free.push(slot);
    sessions.addFlow(flow);
  }

  /** The alerted flows whose records have not come. */
  unsettled(): Set<FlowKey> {
    const ids = new Set<FlowKey>();
    this.slots.forEach((id, slot) => {
      if (slot !== SETTLED) ids.add(id);
    });
    return ids;
  }

  /** Adds the still unsettled flows to the sessions by their alerts' tuples, open-ended (no record says the end). */
  settleByAlerts(sessions: AttackSessions): void {
    this.slots.forEach((id, slot) => {
      if (slot === SETTLED) return;
      const length = this.ints[16 * slot + 3];
      const at = SLOT_BYTES * slot + 24;
      sessions.addFlow({
        protocol: this.ints[16 * slot],
        src: this.bytes.subarray(at, at + length),
        srcPort: this.ints[16 * slot + 1],
        dst: this.bytes.subarray(at + 16, at + 16 + length),
        dstPort: this.ints[16 * slot + 2],
        vlan: this.doubles[8 * slot + 7],
        startUs: this.doubles[8 * slot + 2],
        endUs: Number.POSITIVE_INFINITY,
      });
      this.slots.set(id, SETTLED);
    });
  }

  private allocate(slots: number): void {
    const buffer = new ArrayBuffer(slots * SLOT_BYTES);
    this.ints = new Int32Array(buffer);
    this.doubles = new Float64Array(buffer);
    this.bytes = new Uint8Array(buffer);
  }

  private grow(): void {
    const old = this.bytes;
    this.allocate((2 * old.length) / SLOT_BYTES);
    this.bytes.set(old);
  }
}
