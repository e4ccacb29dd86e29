// Public surface of core/features (filled in by its work).
export {};
