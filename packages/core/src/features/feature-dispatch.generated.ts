// Generated from the feature sets (feature-sets.ts) by feature-dispatch.test.ts: do not edit. After changing a set
// or a group's slots or update: npx vitest run packages/core/src/features/feature-dispatch.test.ts -u
import type { SetDispatch } from "./feature-group.js";
import { cicActiveIdle } from "./groups/cic-active-idle.js";
import { cicAverages } from "./groups/cic-averages.js";
import { cicBulks } from "./groups/cic-bulks.js";
import { cicDirectionFlags } from "./groups/cic-direction-flags.js";
import { cicDirectionGaps } from "./groups/cic-direction-gaps.js";
import { cicDirectionRates } from "./groups/cic-direction-rates.js";
import { cicDuration } from "./groups/cic-duration.js";
import { cicFlagCounts } from "./groups/cic-flag-counts.js";
import { cicFlowGaps } from "./groups/cic-flow-gaps.js";
import { cicFlowPayloads } from "./groups/cic-flow-payloads.js";
import { cicFwdHeaderCopy } from "./groups/cic-fwd-header-copy.js";
import { cicHeaderLengths } from "./groups/cic-header-lengths.js";
import { cicKey } from "./groups/cic-key.js";
import { cicPayloadLengths } from "./groups/cic-payload-lengths.js";
import { cicSubflows } from "./groups/cic-subflows.js";
import { cicTcpStart } from "./groups/cic-tcp-start.js";
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
import { nfstreamFlags } from "./groups/nfstream-flags.js";
import { nfstreamGaps } from "./groups/nfstream-gaps.js";
import { nfstreamSeen } from "./groups/nfstream-seen.js";
import { nfstreamSizes } from "./groups/nfstream-sizes.js";
import { nfstreamSplt } from "./groups/nfstream-splt.js";
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

/**
 * cic: cic-duration, cic-payload-lengths, cic-flow-gaps, cic-direction-gaps, cic-direction-flags,
 * cic-header-lengths, cic-direction-rates, cic-flow-payloads, cic-flag-counts, cic-averages, cic-bulks,
 * cic-subflows, cic-tcp-start, cic-active-idle.
 */
export const cicDispatch: SetDispatch = {
  sideSlots: 21,
  flowSlots: 50,
  update(s, at, packet) {
    const side = packet.forward ? at : at + 21;
    const flow = at + 42;
    cicPayloadLengths.update!(s, side, flow, packet);
    cicFlowGaps.update!(s, side, flow, packet);
    cicDirectionGaps.update!(s, side + 6, flow, packet);
    cicDirectionFlags.update!(s, side + 13, flow, packet);
    cicHeaderLengths.update!(s, side + 15, flow, packet);
    cicFlowPayloads.update!(s, side, flow + 6, packet);
    cicFlagCounts.update!(s, side, flow + 12, packet);
    cicAverages.update!(s, side + 16, flow, packet);
    cicBulks.update!(s, side, flow + 20, packet);
    cicSubflows.update!(s, side + 17, flow + 36, packet);
    cicTcpStart.update!(s, side + 18, flow, packet);
    cicActiveIdle.update!(s, side, flow + 37, packet);
  },
  finish(s, at, session, row) {
    const flow = at + 42;
    cicDuration.finish(s, at, at, at, session, row);
    cicPayloadLengths.finish(s, at, at + 21, at, session, row);
    cicFlowGaps.finish(s, at, at, flow, session, row);
    cicDirectionGaps.finish(s, at + 6, at + 27, at, session, row);
    cicDirectionFlags.finish(s, at + 13, at + 34, at, session, row);
    cicHeaderLengths.finish(s, at + 15, at + 36, at, session, row);
    cicDirectionRates.finish(s, at, at, at, session, row);
    cicFlowPayloads.finish(s, at, at, flow + 6, session, row);
    cicFlagCounts.finish(s, at, at, flow + 12, session, row);
    cicAverages.finish(s, at + 16, at + 37, at, session, row);
    cicBulks.finish(s, at, at, flow + 20, session, row);
    cicSubflows.finish(s, at + 17, at + 38, flow + 36, session, row);
    cicTcpStart.finish(s, at + 18, at + 39, at, session, row);
    cicActiveIdle.finish(s, at, at, flow + 37, session, row);
  },
};

/** nfstream: nfstream-seen, nfstream-sizes, nfstream-gaps, nfstream-flags, nfstream-splt. */
export const nfstreamDispatch: SetDispatch = {
  sideSlots: 23,
  flowSlots: 16,
  update(s, at, packet, stores) {
    const side = packet.forward ? at : at + 23;
    const flow = at + 46;
    nfstreamSeen.update!(s, side, flow, packet);
    nfstreamSizes.update!(s, side + 2, flow, packet);
    nfstreamGaps.update!(s, side + 8, flow + 6, packet);
    nfstreamFlags.update!(s, side + 15, flow, packet);
    nfstreamSplt.update!(s, side, flow + 13, packet, stores![0]);
  },
  finish(s, at, session, row, stores) {
    const flow = at + 46;
    nfstreamSeen.finish(s, at, at + 23, at, session, row);
    nfstreamSizes.finish(s, at + 2, at + 25, flow, session, row);
    nfstreamGaps.finish(s, at + 8, at + 31, flow + 6, session, row);
    nfstreamFlags.finish(s, at + 15, at + 38, at, session, row);
    nfstreamSplt.finish(s, at, at, flow + 13, session, row, stores![0]);
  },
};

/** cic-key: cic-key. */
export const cicKeyDispatch: SetDispatch = {
  sideSlots: 0,
  flowSlots: 0,
  finish(s, at, session, row) {
    cicKey.finish(s, at, at, at, session, row);
  },
};

/**
 * cic-compat: cic-duration, cic-payload-lengths, cic-flow-gaps, cic-direction-gaps, cic-direction-flags,
 * cic-header-lengths, cic-direction-rates, cic-flow-payloads, cic-flag-counts, cic-averages, cic-fwd-header-copy,
 * cic-bulks, cic-subflows, cic-tcp-start, cic-active-idle.
 */
export const cicCompatDispatch: SetDispatch = {
  sideSlots: 22,
  flowSlots: 50,
  update(s, at, packet) {
    const side = packet.forward ? at : at + 22;
    const flow = at + 44;
    cicPayloadLengths.update!(s, side, flow, packet);
    cicFlowGaps.update!(s, side, flow, packet);
    cicDirectionGaps.update!(s, side + 6, flow, packet);
    cicDirectionFlags.update!(s, side + 13, flow, packet);
    cicHeaderLengths.update!(s, side + 15, flow, packet);
    cicFlowPayloads.update!(s, side, flow + 6, packet);
    cicFlagCounts.update!(s, side, flow + 12, packet);
    cicAverages.update!(s, side + 16, flow, packet);
    cicFwdHeaderCopy.update!(s, side + 17, flow, packet);
    cicBulks.update!(s, side, flow + 20, packet);
    cicSubflows.update!(s, side + 18, flow + 36, packet);
    cicTcpStart.update!(s, side + 19, flow, packet);
    cicActiveIdle.update!(s, side, flow + 37, packet);
  },
  finish(s, at, session, row) {
    const flow = at + 44;
    cicDuration.finish(s, at, at, at, session, row);
    cicPayloadLengths.finish(s, at, at + 22, at, session, row);
    cicFlowGaps.finish(s, at, at, flow, session, row);
    cicDirectionGaps.finish(s, at + 6, at + 28, at, session, row);
    cicDirectionFlags.finish(s, at + 13, at + 35, at, session, row);
    cicHeaderLengths.finish(s, at + 15, at + 37, at, session, row);
    cicDirectionRates.finish(s, at, at, at, session, row);
    cicFlowPayloads.finish(s, at, at, flow + 6, session, row);
    cicFlagCounts.finish(s, at, at, flow + 12, session, row);
    cicAverages.finish(s, at + 16, at + 38, at, session, row);
    cicFwdHeaderCopy.finish(s, at + 17, at + 39, at, session, row);
    cicBulks.finish(s, at, at, flow + 20, session, row);
    cicSubflows.finish(s, at + 18, at + 40, flow + 36, session, row);
    cicTcpStart.finish(s, at + 19, at + 41, at, session, row);
    cicActiveIdle.finish(s, at, at, flow + 37, session, row);
  },
};

/** Each set's dispatch, by the set's name. */
export const DISPATCH: Readonly<Record<string, SetDispatch>> = {
  key: keyDispatch,
  tracemill: tracemillDispatch,
  cic: cicDispatch,
  nfstream: nfstreamDispatch,
  "cic-key": cicKeyDispatch,
  "cic-compat": cicCompatDispatch,
};
