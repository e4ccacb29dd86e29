// Public surface of engine/explore: output tables (CSV, Parquet) opened for the feature explorer over a cache.
export { buildCsvCache } from "./csv-table.js";
export { type ExploredTable, type ExploreOptions, exploreColumn, openExploredTable } from "./explored-table.js";
export { openParquetTable, type ParquetTable } from "./parquet-table.js";
export { CACHE_VERSION, type TableColumnInfo, type TableFormat, type TableInfo } from "./table-cache.js";
