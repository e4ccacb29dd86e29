// Generated from the feature sets (feature-sets.ts) by feature-dispatch.test.ts: do not edit. After changing a set
// or a group's slots or update: npx vitest run packages/core/src/features/feature-dispatch.test.ts -u
import type { SetDispatch } from "./feature-group.js";
import { directionFlags } from "./groups/direction-flags.js";
import { directionGaps } from "./groups/direction-gaps.js";
import { directionLengths } from "./groups/direction-lengths.js";
import { downUp } from "./groups/down-up.js";
import { duration } from "./groups/duration.js";
import { endpoints } from "./groups/endpoints.js";
import { flagCounts } from "./groups/flag-counts.js";
import { flowGaps } from "./groups/flow-gaps.js";
import { flowLengths } from "./groups/flow-lengths.js";
import { headerLengths } from "./groups/header-lengths.js";
import { rates } from "./groups/rates.js";

/** key: endpoints. */
export const keyDispatch: SetDispatch = {
  sideSlots: 0,
  flowSlots: 0,
  finish(s, at, session, row) {
    endpoints.finish(s, at, at, at, session, row);
  },
};

/**
 * tracemill: duration, direction-lengths, direction-gaps, direction-flags, header-lengths, rates, flow-lengths,
 * flow-gaps, flag-counts, down-up.
 */
export const tracemillDispatch: SetDispatch = {
  sideSlots: 16,
  flowSlots: 15,
  update(s, at, packet) {
    const side = packet.forward ? at : at + 16;
    const flow = at + 32;
    directionLengths.update!(s, side, flow, packet);
    directionGaps.update!(s, side + 6, flow, packet);
    directionFlags.update!(s, side + 13, flow, packet);
    headerLengths.update!(s, side + 15, flow, packet);
    flowLengths.update!(s, side, flow, packet);
    flowGaps.update!(s, side, flow + 4, packet);
    flagCounts.update!(s, side, flow + 8, packet);
  },
  finish(s, at, session, row) {
    const flow = at + 32;
    duration.finish(s, at, at, at, session, row);
    directionLengths.finish(s, at, at + 16, at, session, row);
    directionGaps.finish(s, at + 6, at + 22, at, session, row);
    directionFlags.finish(s, at + 13, at + 29, at, session, row);
    headerLengths.finish(s, at + 15, at + 31, at, session, row);
    rates.finish(s, at, at, at, session, row);
    flowLengths.finish(s, at, at, flow, session, row);
    flowGaps.finish(s, at, at, flow + 4, session, row);
    flagCounts.finish(s, at, at, flow + 8, session, row);
    downUp.finish(s, at, at, at, session, row);
  },
};

/** Each set's dispatch, by the set's name. */
export const DISPATCH: Readonly<Record<string, SetDispatch>> = {
  key: keyDispatch,
  tracemill: tracemillDispatch,
};
