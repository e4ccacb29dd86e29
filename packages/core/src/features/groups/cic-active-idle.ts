// Active Mean … Idle Min: the session's active and idle periods, in microseconds. A gap of more than ACTIVITY_TIMEOUT_NS
// between consecutive packets (either direction) is an idle period; the packets between two such gaps (or the
// session's ends) form an active period, lasting from its first packet to its last (0 for a lone packet). Every
// session has one active period more than it has idle ones, the last one included.
import type { FeatureGroup } from "../feature-group.js";
import { addValue, STATS_SLOTS, statCount, statDeviation, statMax, statMean, statMin } from "../running-stats.js";

/** CICFlowMeter's activity timeout: 5 s, a constant of the set (the run's timeouts cut sessions, not periods). */
export const ACTIVITY_TIMEOUT_NS = 5e9;

/** Session-wide: the current active period's start, then the closed active periods' and the idle periods' stats. */
const ACTIVE = 1;
const IDLE = 1 + STATS_SLOTS;

export const cicActiveIdle: FeatureGroup = {
  name: "cic-active-idle",
  kind: "measuring",
  columns: [
    { name: "Active Mean", type: "real" },
    { name: "Active Std", type: "real" },
    { name: "Active Max", type: "real" },
    { name: "Active Min", type: "real" },
    { name: "Idle Mean", type: "real" },
    { name: "Idle Std", type: "real" },
    { name: "Idle Max", type: "real" },
    { name: "Idle Min", type: "real" },
  ],
  sideSlots: 0,
  flowSlots: 1 + 2 * STATS_SLOTS,
  update(s, _side, flow, packet) {
    const gap = packet.gap;
    if (gap < 0) {
      s[flow] = packet.time;
    } else if (gap > ACTIVITY_TIMEOUT_NS) {
      addValue(s, flow + ACTIVE, packet.time - gap - s[flow]);
      addValue(s, flow + IDLE, gap);
      s[flow] = packet.time;
    }
  },
  finish(s, _fwd, _bwd, flow, session, row) {
    // The last active period ends with the session: merged here into a copy of the closed periods' statistics (the
    // state stays as it is, finish may run twice), by the same Welford step addValue takes.
    const last = session.lastTime - s[flow];
    const at = flow + ACTIVE;
    const closed = statCount(s, at);
    const count = closed + 1;
    const delta = last - s[at + 4];
    const squares = s[at + 5] + delta * (last - (s[at + 4] + delta / count));
    row.decimal((s[at + 1] + last) / count / 1e3);
    row.decimal(count < 2 ? 0 : Math.sqrt(squares / (count - 1)) / 1e3);
    row.decimal((closed === 0 ? last : Math.max(statMax(s, at), last)) / 1e3);
    row.decimal((closed === 0 ? last : Math.min(statMin(s, at), last)) / 1e3);
    const idle = flow + IDLE;
    if (statCount(s, idle) === 0) {
      row.zeros(4);
      return;
    }
    row.decimal(statMean(s, idle) / 1e3);
    row.decimal(statDeviation(s, idle) / 1e3);
    row.decimal(statMax(s, idle) / 1e3);
    row.decimal(statMin(s, idle) / 1e3);
  },
};
