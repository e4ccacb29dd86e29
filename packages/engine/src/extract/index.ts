// Public surface of the extract capability (filled in by its work).
export {};
