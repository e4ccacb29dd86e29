// Public surface of engine/zip: a zip that Tracemill wrote (an images zip) read back, its central directory once and
// each entry where it lies, checked against its CRC-32; shared by combine (joining parts) and browse (the gallery).
export { type FileRegion, regionChunks } from "./file-region.js";
export { listZip, readZipDirectory, type ZipEntryPlace } from "./zip-directory.js";
export { entryBytes, entryChunks, storedRegion } from "./zip-entry.js";
