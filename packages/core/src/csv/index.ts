// Public surface of core/csv: CSV read from chunks of bytes, for the explorer, the gallery and the IPT plots alike:
// the scanner (cells and rows), the sinks that make a row's cells text, and where rows start (an index's pass).
export { type CellText, HeaderThenRows, KeptCells } from "./csv-rows.js";
export { type CsvCellSink, type CsvOddities, CsvScanner, MAX_CELL_BYTES } from "./csv-scanner.js";
export { ROW_STRIDE, type RowGrammar, RowStarts, type RowStartTable } from "./row-starts.js";
