// The nfstream set: NFStream's post-mortem flow statistics and its early-packet sequences, under NFStream's names,
// after the session key (`--features nfstream`; docs/features/nfstream.md).
import type { FeatureSetDefinition } from "../feature-group.js";
import { nfstreamFlags } from "../groups/nfstream-flags.js";
import { nfstreamGaps } from "../groups/nfstream-gaps.js";
import { nfstreamSeen } from "../groups/nfstream-seen.js";
import { nfstreamSizes } from "../groups/nfstream-sizes.js";
import { nfstreamSplt } from "../groups/nfstream-splt.js";

export const nfstream: FeatureSetDefinition = {
  name: "nfstream",
  description:
    "NFStream's 63 flow statistics (times, counts, sizes, gaps, TCP flags; both ways and each way) and its 3 " +
    "early-packet sequences (--splt)",
  groups: [nfstreamSeen, nfstreamSizes, nfstreamGaps, nfstreamFlags, nfstreamSplt],
};
