// Public surface of the merge capability (filled in by its work).
export {};
