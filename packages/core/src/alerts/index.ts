// Public surface of core/alerts (filled in by its work).
export {};
