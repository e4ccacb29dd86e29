// Public surface of the sanitize capability (filled in by its work).
export {};
