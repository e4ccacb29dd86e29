// Public surface of the images capability (filled in by its work).
export {};
