// Public surface of the label capability (filled in by its work).
export {};
