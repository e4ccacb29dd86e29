// Public surface of core/outputs (filled in by its work).

export { CellRowBuilder } from "./cell-row-builder.js";
export { csvHeaderLine } from "./csv-header.js";
export { IMAGE_MANIFEST_NAME, imageEntryName, imageManifestHeader, imageManifestLine } from "./image-manifest.js";
export { IMAGE_ROW_BYTES, ImageRows } from "./image-row.js";
export { IptLine, IptSeries } from "./ipt-series.js";
export { OrderedRows, type OrderedRowsOptions, type RowSink } from "./ordered-rows.js";
export { MAX_BLOCK_BYTES, RowBlocks } from "./row-blocks.js";
export { RowBuilder } from "./row-builder.js";
export { type ColumnValues, RowCells } from "./row-cells.js";
export { MemoryRowSpill, type RowSpill } from "./row-spill.js";
export { ScanlineDeflater } from "./scanline-deflate.js";
