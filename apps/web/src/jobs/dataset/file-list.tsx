// A list of input files of one role (a dataset job's attack captures or alert files): each chosen file in order with
// a Remove button and, for attack captures, its class; a fresh picker below adds one more.
import type { ReactNode } from "react";
import { useState } from "react";
import type { InputKind } from "../file-check.js";
import { FilePicker, formatBytes, type PickedFile } from "../file-picker.js";

export function FileList(props: {
  /** The list's name ("Attack captures"); its picker is "<one> (optional)". */
  label: string;
  one: string;
  kind: InputKind;
  value: readonly PickedFile[];
  max: number;
  /** Removes a file; the caller keeps anything it holds by position (classes) in step. */
  onRemove(index: number): void;
  onAdd(picked: PickedFile): void;
  /** What a row shows after the file's name (an attack capture's class field). */
  rowExtra?(index: number): ReactNode;
}) {
  const { value } = props;
  // A fresh picker after each pick: its key changes, so it starts empty again.
  const [round, setRound] = useState(0);
  return (
    <div className="file-list">
      {value.length > 0 && (
        <ol aria-label={props.label}>
          {value.map((picked, index) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: the same file may be listed twice, and order is the key
            <li key={index}>
              <span>
                {picked.name}
                {picked.size !== undefined && ` (${formatBytes(picked.size)})`}
              </span>
              {props.rowExtra?.(index)}
              <button
                type="button"
                className="link-button"
                aria-label={`Remove ${picked.name}`}
                onClick={() => props.onRemove(index)}
              >
                Remove
              </button>
              {picked.problem && (
                <p className="field-error" role="alert">
                  {picked.problem}
                </p>
              )}
            </li>
          ))}
        </ol>
      )}
      {value.length < props.max && (
        <FilePicker
          key={round}
          label={value.length === 0 ? `${props.one} (optional)` : `Another ${props.one.toLowerCase()}`}
          kind={props.kind}
          value={undefined}
          onChange={(picked) => {
            if (!picked) return;
            props.onAdd(picked);
            setRound(round + 1);
          }}
        />
      )}
    </div>
  );
}
