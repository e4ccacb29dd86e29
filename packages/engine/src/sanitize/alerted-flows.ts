// The flows one Suricata run alerted on, by flow id, until their flow records come: each alert's own tuple is kept
// as a fallback in typed arrays (a run may count hundreds of thousands of alerts), and a flow is settled once its
// record has been given to the attack sessions.
import type { EveAlertFields } from "@tracemill/core";
import type { AttackFlow, AttackSessions } from "./attack-sessions.js";
import type { FlowKey } from "./eve-files.js";
import { FlowIdTable } from "./flow-id-table.js";

const SETTLED = -1;

export class AlertedFlows {
  /** Slot of each flow's fallback tuple; SETTLED once its flow record was used. */
  private readonly slots = new FlowIdTable();
  private count = 0;
  /** Per slot: protocol, source port, destination port, address length. */
  private ints = new Int32Array(4 * 1024);
  private startUs = new Float64Array(1024);
  /** Per slot: 16 bytes of source address, then 16 of destination. */
  private addresses = new Uint8Array(32 * 1024);

  /** True while the flow has alerted and its record has not been used: the flow reader parses only these. */
  readonly wants = (id: FlowKey): boolean => (this.slots.get(id) ?? SETTLED) !== SETTLED;

  /** Keeps the alert's tuple from its flow's start on; a later alert of the same flow replaces it. */
  noteAlert(alert: EveAlertFields, id: FlowKey): void {
    let slot = this.slots.get(id);
    if (slot === SETTLED) return;
    if (slot === undefined) {
      slot = this.count++;
      if (slot === this.startUs.length) this.grow();
      this.slots.set(id, slot);
    }
    this.ints[4 * slot] = alert.protocol;
    this.ints[4 * slot + 1] = alert.srcPort;
    this.ints[4 * slot + 2] = alert.dstPort;
    this.ints[4 * slot + 3] = alert.addressLength;
    this.startUs[slot] = alert.flowStartUs;
    const at = 32 * slot;
    const addresses = this.addresses;
    for (let i = 0; i < alert.addressLength; i++) {
      addresses[at + i] = alert.src[i];
      addresses[at + 16 + i] = alert.dst[i];
    }
  }

  /** Adds the flow record of an alerted flow to the sessions (once). */
  settle(id: FlowKey, flow: AttackFlow, sessions: AttackSessions): void {
    if (!this.wants(id)) return;
    this.slots.set(id, SETTLED);
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
      const length = this.ints[4 * slot + 3];
      const at = 32 * slot;
      sessions.addFlow({
        protocol: this.ints[4 * slot],
        src: this.addresses.subarray(at, at + length),
        srcPort: this.ints[4 * slot + 1],
        dst: this.addresses.subarray(at + 16, at + 16 + length),
        dstPort: this.ints[4 * slot + 2],
        startUs: this.startUs[slot],
        endUs: Number.POSITIVE_INFINITY,
      });
      this.slots.set(id, SETTLED);
    });
  }

  private grow(): void {
    const ints = new Int32Array(this.ints.length * 2);
    ints.set(this.ints);
    this.ints = ints;
    const startUs = new Float64Array(this.startUs.length * 2);
    startUs.set(this.startUs);
    this.startUs = startUs;
    const addresses = new Uint8Array(this.addresses.length * 2);
    addresses.set(this.addresses);
    this.addresses = addresses;
  }
}
