// Public surface of engine/hashing: the SHA-256 of a run's inputs, beside the pass that reads them (one worker
// thread fed the chunks the readers read), and the wait for that thread's end before a process exits.
export { givenHash } from "./given-hashes.js";
export { workersRetired } from "./hash-workers.js";
export { defaultHashingPlace, type HashingPlace, InputDigests, type InputDigestsOptions } from "./input-digests.js";
