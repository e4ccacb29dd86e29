// Further captures for a job over several: for extract, label, ipt and images each runs as a part of its own and the
// job ends with one output whose rows follow the captures' order (docs/api.md, "Jobs over several captures"); a
// dataset job reads them all together in one run.
import { MAX_CAPTURES } from "@tracemill/contracts";
import { useState } from "react";
import { FilePicker, formatBytes, type PickedFile } from "./file-picker.js";

export function MoreCaptures(props: {
  value: readonly PickedFile[];
  onChange(value: PickedFile[]): void;
  /** Read together in one run (a dataset job), not as parts. */
  together?: boolean;
}) {
  const { value, onChange } = props;
  // A fresh picker after each pick: its key changes, so it starts empty again.
  const [round, setRound] = useState(0);
  return (
    <div className="more-captures">
      {value.length > 0 && (
        <ol start={2} aria-label="Further captures">
          {value.map((picked, index) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: the same file may be listed twice, and order is the key
            <li key={index}>
              {picked.name}
              {picked.size !== undefined && ` (${formatBytes(picked.size)})`}{" "}
              <button
                type="button"
                className="link-button"
                aria-label={`Remove ${picked.name}`}
                onClick={() => onChange(value.filter((_, i) => i !== index))}
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
      {value.length + 1 < MAX_CAPTURES && (
        <FilePicker
          key={round}
          label={
            value.length === 0
              ? `Another capture (optional: ${props.together ? "a dataset of several" : "one job over several"})`
              : "Another capture"
          }
          kind="capture"
          value={undefined}
          onChange={(picked) => {
            if (!picked) return;
            onChange([...value, picked]);
            setRound(round + 1);
          }}
        />
      )}
      <small className="hint">
        {props.together
          ? "The captures are read one after the other in one run: their sessions are labelled, split and audited together, and each row names its capture."
          : "Each capture runs as a part of its own, on whichever worker is free; the job's output has their rows one capture after the other, and each capture's own files beside it."}
      </small>
    </div>
  );
}
