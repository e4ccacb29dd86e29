// The cic set: CICFlowMeter 4.0's columns as the CIC-IDS2017 CSV header names and orders them, after the session key
// (`--features cic`), with the known errors of that tool fixed (docs/features/cic.md).
import type { FeatureSetDefinition } from "../feature-group.js";
import { cicActiveIdle } from "../groups/cic-active-idle.js";
import { cicAverages } from "../groups/cic-averages.js";
import { cicBulks } from "../groups/cic-bulks.js";
import { cicDirectionFlags } from "../groups/cic-direction-flags.js";
import { cicDirectionGaps } from "../groups/cic-direction-gaps.js";
import { cicDirectionRates } from "../groups/cic-direction-rates.js";
import { cicDuration } from "../groups/cic-duration.js";
import { cicFlagCounts } from "../groups/cic-flag-counts.js";
import { cicFlowGaps } from "../groups/cic-flow-gaps.js";
import { cicFlowPayloads } from "../groups/cic-flow-payloads.js";
import { cicHeaderLengths } from "../groups/cic-header-lengths.js";
import { cicPayloadLengths } from "../groups/cic-payload-lengths.js";
import { cicSubflows } from "../groups/cic-subflows.js";
import { cicTcpStart } from "../groups/cic-tcp-start.js";

export const cic: FeatureSetDefinition = {
  name: "cic",
  description:
    "CICFlowMeter 4.0's 76 flow features as named in CIC-IDS2017 (payload lengths, microseconds), its errors fixed",
  groups: [
    cicDuration,
    cicPayloadLengths,
    cicFlowGaps,
    cicDirectionGaps,
    cicDirectionFlags,
    cicHeaderLengths,
    cicDirectionRates,
    cicFlowPayloads,
    cicFlagCounts,
    cicAverages,
    cicBulks,
    cicSubflows,
    cicTcpStart,
    cicActiveIdle,
  ],
  // CICFlowMeter ends a flow 120 s after its first packet and knows no idle timeout: an idle timeout equal to the
  // active one never ends a session first, so the sessions are CICFlowMeter's.
  defaults: { activeTimeout: 120, idleTimeout: 120 },
};
