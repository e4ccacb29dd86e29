// Public surface of the capture capability (filled in by its work).
export {};
