// Public surface of engine/hashing: the SHA-256 of a run's inputs, beside the pass that reads them (one worker
// thread fed the chunks the readers read, or the reading thread for a small file), and the wait for that thread's end before a process exits.
export { givenHash } from "./given-hashes.js";
export { workersRetired } from "./hash-workers.js";
export {
  defaultHashingPlace,
  type HashingPlace,
  hashingPlaceFor,
  InputDigests,
  type InputDigestsOptions,
  SMALL_INPUT_BYTES,
} from "./input-digests.js";
