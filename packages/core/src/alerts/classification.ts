// classification.config parser: classtypes numbered by position (as unified2 stores them), with description and priority.
import { TracemillError } from "../errors.js";

export interface Classification {
  /** 1-based position in the file: the classification_id unified2 events carry. */
  id: number;
  /** Short name used by rules' classtype (e.g. "trojan-activity"). */
  name: string;
  /** Human text; EVE alerts carry it as "category". */
  description: string;
  /** Default priority (1 = most severe); EVE calls it "severity". */
  priority: number;
}

export interface ClassificationTable {
  entries: Classification[];
  byId(id: number): Classification | undefined;
  byName(name: string): Classification | undefined;
  byDescription(description: string): Classification | undefined;
}

/**
 * Parses `config classification: name,description,priority` lines; comments and blank lines are ignored, and any
 * other line is refused (BAD_INPUT naming it): a file of something else must not pass for an empty table.
 * A later line with the same name replaces the earlier one's text and priority but keeps its id.
 */
export function parseClassificationConfig(text: string, file?: string): ClassificationTable {
  const entries: Classification[] = [];
  const byName = new Map<string, Classification>();
  text.split(/\r?\n/).forEach((raw, lineIndex) => {
    const line = raw.trim();
    if (line === "" || line.startsWith("#")) return;
    const fields = /^config\s+classification\s*:\s*(.*)$/i.exec(line)?.[1].split(",") ?? [];
    const name = fields[0]?.trim() ?? "";
    const priority = fields.at(-1)?.trim() ?? "";
    const description = fields.slice(1, -1).join(",").trim();
    if (fields.length < 3 || !/^[^\s]+$/.test(name) || !/^\d{1,9}$/.test(priority)) {
      throw new TracemillError(
        "BAD_INPUT",
        `${file ?? "classification.config"}: line ${lineIndex + 1} is not a comment or "config classification: name,description,priority"`,
        { file, line: lineIndex + 1 },
      );
    }
    const known = byName.get(name.toLowerCase());
    if (known) {
      known.description = description;
      known.priority = Number(priority);
      return;
    }
    const entry = { id: entries.length + 1, name, description, priority: Number(priority) };
    entries.push(entry);
    byName.set(name.toLowerCase(), entry);
  });
  const byDescription = new Map(entries.map((e) => [e.description, e]));
  return {
    entries,
    byId: (id) => entries[id - 1],
    byName: (name) => byName.get(name.toLowerCase()),
    byDescription: (description) => byDescription.get(description),
  };
}
