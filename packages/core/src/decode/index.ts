// Public surface of core/decode (filled in by its work).
export {};
