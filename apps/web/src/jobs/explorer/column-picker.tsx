// Picks one column of many (192 for three feature sets): a search box narrowing a list box of every column, both
// native controls, so keyboards and screen readers work as they do everywhere.
import type { TableColumn } from "@tracemill/contracts";
import { useId, useState } from "react";

export function ColumnPicker(props: {
  columns: TableColumn[];
  value: string | undefined;
  onChange: (column: string) => void;
}) {
  const { columns, value, onChange } = props;
  const [search, setSearch] = useState("");
  const id = useId();
  const words = search.trim().toLowerCase();
  const shown = columns.filter((column) => column.name.toLowerCase().includes(words));
  return (
    <div className="column-picker">
      <label htmlFor={`${id}-search`}>Find a column</label>
      <input
        id={`${id}-search`}
        type="search"
        value={search}
        placeholder="part of a name, e.g. pktl"
        onChange={(event) => setSearch(event.target.value)}
      />
      <label htmlFor={`${id}-list`}>Column</label>
      <select id={`${id}-list`} size={8} value={value ?? ""} onChange={(event) => onChange(event.target.value)}>
        {shown.map((column) => (
          <option key={column.name} value={column.name}>
            {column.name} ({column.type === "numeric" ? "number" : "text"})
          </option>
        ))}
      </select>
      <small>
        {shown.length} of {columns.length} columns
      </small>
    </div>
  );
}
