// Public surface of core/flow (filled in by its work).
export {};
