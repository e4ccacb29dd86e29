// What every wizard step is given: the draft and how to change it. Its own module, so the forms and the steps they
// list both import it without importing each other.
import type { InputRole } from "@tracemill/contracts";
import type { Draft } from "./draft.js";
import type { PickedFile } from "./file-picker.js";

export interface StepProps {
  draft: Draft;
  setInput(role: InputRole, picked: PickedFile | undefined): void;
  /** The files of a role a capability reads as a list (Draft.lists), in order. */
  setList(role: InputRole, files: PickedFile[]): void;
  /** A parameter the user set. */
  setParam(name: string, value: unknown): void;
  /** A parameter derived from another choice (a feature set's own timeouts): kept if the user set it by hand. */
  deriveParam(name: string, value: unknown): void;
}
