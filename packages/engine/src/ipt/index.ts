// Public surface of the ipt capability (filled in by its work).
export {};
