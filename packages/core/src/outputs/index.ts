// Public surface of core/outputs (filled in by its work).

export { IMAGE_MANIFEST_NAME, imageEntryName, imageManifestHeader, imageManifestLine } from "./image-manifest.js";
export { IMAGE_ROW_BYTES, ImageRow } from "./image-row.js";
export { IptSeries } from "./ipt-series.js";
