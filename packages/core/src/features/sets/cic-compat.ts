// `--cic-compat`: the row of a CIC-IDS2017 "TrafficLabelling" CSV. Not a set a run names: the cic set's run takes
// this key and set instead of the session key and the cic set (docs/features/cic.md, "--cic-compat").
import type { FeatureSetDefinition } from "../feature-group.js";
import { cicFwdHeaderCopy } from "../groups/cic-fwd-header-copy.js";
import { cicKey } from "../groups/cic-key.js";
import { cic } from "./cic.js";

/** CIC-IDS2017's first seven columns, in the session key's place. */
export const CIC_COMPAT_KEY: FeatureSetDefinition = {
  name: "cic-key",
  description: "CIC-IDS2017's Flow ID, addresses, ports, protocol and Timestamp, as CICFlowMeter writes them",
  groups: [cicKey],
};

/** The cic set with CIC-IDS2017's copy of Fwd Header Length where that header has it, after Avg Bwd Segment Size. */
export const cicCompat: FeatureSetDefinition = {
  ...cic,
  name: "cic-compat",
  groups: cic.groups.flatMap((group) => (group.name === "cic-averages" ? [group, cicFwdHeaderCopy] : [group])),
};

/**
 * The header's names as published, spaces after commas kept (CICFlowMeter joined them with ", " in places and "," in
 * others) and Fwd Header Length twice: the key's and the set's columns in order. CIC_IDS2017_LABEL follows them.
 */
export const CIC_IDS2017_COLUMNS: readonly string[] = [
  "Flow ID",
  " Source IP",
  " Source Port",
  " Destination IP",
  " Destination Port",
  " Protocol",
  " Timestamp",
  " Flow Duration",
  " Total Fwd Packets",
  " Total Backward Packets",
  "Total Length of Fwd Packets",
  " Total Length of Bwd Packets",
  " Fwd Packet Length Max",
  " Fwd Packet Length Min",
  " Fwd Packet Length Mean",
  " Fwd Packet Length Std",
  "Bwd Packet Length Max",
  " Bwd Packet Length Min",
  " Bwd Packet Length Mean",
  " Bwd Packet Length Std",
  "Flow Bytes/s",
  " Flow Packets/s",
  " Flow IAT Mean",
  " Flow IAT Std",
  " Flow IAT Max",
  " Flow IAT Min",
  "Fwd IAT Total",
  " Fwd IAT Mean",
  " Fwd IAT Std",
  " Fwd IAT Max",
  " Fwd IAT Min",
  "Bwd IAT Total",
  " Bwd IAT Mean",
  " Bwd IAT Std",
  " Bwd IAT Max",
  " Bwd IAT Min",
  "Fwd PSH Flags",
  " Bwd PSH Flags",
  " Fwd URG Flags",
  " Bwd URG Flags",
  " Fwd Header Length",
  " Bwd Header Length",
  "Fwd Packets/s",
  " Bwd Packets/s",
  " Min Packet Length",
  " Max Packet Length",
  " Packet Length Mean",
  " Packet Length Std",
  " Packet Length Variance",
  "FIN Flag Count",
  " SYN Flag Count",
  " RST Flag Count",
  " PSH Flag Count",
  " ACK Flag Count",
  " URG Flag Count",
  " CWE Flag Count",
  " ECE Flag Count",
  " Down/Up Ratio",
  " Average Packet Size",
  " Avg Fwd Segment Size",
  " Avg Bwd Segment Size",
  " Fwd Header Length",
  "Fwd Avg Bytes/Bulk",
  " Fwd Avg Packets/Bulk",
  " Fwd Avg Bulk Rate",
  " Bwd Avg Bytes/Bulk",
  " Bwd Avg Packets/Bulk",
  "Bwd Avg Bulk Rate",
  "Subflow Fwd Packets",
  " Subflow Fwd Bytes",
  " Subflow Bwd Packets",
  " Subflow Bwd Bytes",
  "Init_Win_bytes_forward",
  " Init_Win_bytes_backward",
  " act_data_pkt_fwd",
  " min_seg_size_forward",
  "Active Mean",
  " Active Std",
  " Active Max",
  " Active Min",
  "Idle Mean",
  " Idle Std",
  " Idle Max",
  " Idle Min",
];

/** The header's last column, which the capability writes after the features: the label, or that there is none. */
export const CIC_IDS2017_LABEL = " Label";

/** The Label CICFlowMeter writes (BasicFlow.getLabel): a row nobody has labelled. */
export const CIC_MANUAL_LABEL = "NeedManualLabel";

/** The labels of a labelled run: CIC-IDS2017's BENIGN, and a binary run's attacks (it knows no class). */
export const CIC_BENIGN_LABEL = "BENIGN";
export const CIC_ATTACK_LABEL = "ATTACK";
