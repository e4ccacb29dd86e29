// Public surface of the ipt capability: inter-packet time series beside the feature CSV.
export { extractIpt, IPT_CSV_FILE, IPT_FILE, type IptOptions } from "./extract-ipt.js";
