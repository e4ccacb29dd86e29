// Public surface of core/outputs (filled in by its work).
export {};
