// The hand-over of packets from the reading thread to one session worker of `extract --threads N`: a single-producer,
// single-consumer ring of fixed 80-byte records in shared memory, with Atomics for the counters and for waiting.

/**
 * Record words (32-bit): addresses, ports, protocol, lengths, nanoseconds, a pad word, then three doubles (seconds,
 * packet index, add number).
 */
export const RECORD_WORDS = 20;
const RECORD_BYTES = RECORD_WORDS * 4;
/** Records per ring (a power of two): 1.3 MB per worker, deep enough that neither side waits on the other often. */
export const RING_RECORDS = 1 << 14;
const MASK = RING_RECORDS - 1;
/** Records written before they are published to the worker (one store and one notify per this many). */
const PUBLISH_EVERY = 256;

/** Word offsets inside a record. */
export const R_SRC = 0; // bytes 0–15: source address (4 bytes for IPv4)
export const R_DST = 4; // bytes 16–31: destination address
export const R_PORTS = 8; // source port << 16 | destination port
export const R_KIND = 9; // protocol | IP version << 8 | TCP flags << 16 | record type << 24
// The two lengths are unsigned 32-bit (read with >>> 0): a frame's original length is a 32-bit field of the file, so
// a length can reach 4 GiB, and IPv6 extension headers can make the headers longer than 16 bits.
export const R_LENGTH = 10; // bytes the packet counts for
export const R_HEADERS = 11; // header bytes the packet counts for (IP + transport: all the flow table uses of them)
// The packet's time, after the global out-of-order clamp, is whole epoch seconds (F_SEC) and nanoseconds: exact
// at any distance from the capture's first packet, as the flow table needs it.
export const R_NSEC = 12; // nanoseconds 0..999 999 999
/** Double offsets inside a record (Float64Array index = record word offset / 2 + these). */
export const F_SEC = 7; // whole epoch seconds
export const F_INDEX = 8; // the packet's position in the capture
export const F_ADD = 9; // the packet's position in the global order of flow-table additions (the merge key)

/** Record types (bits 24–31 of R_KIND). */
export const RecordType = {
  /** A TCP or UDP packet of one of the worker's sessions. */
  Packet: 0,
  /** The capture's time and number of additions so far: idle expiry and the row watermark advance. */
  Tick: 1,
  /** The end of the capture: F_SEC and R_NSEC are its last time (the end reason idle vs end-of-capture depends on it). */
  End: 2,
} as const;

/** Control words: counters of records written and read (they wrap at 2^32; only differences are used), flags. */
const C_WRITTEN = 0;
const C_READ = 1;
/** Set by the reader when it failed (the writer must not wait for it), by the writer to stop the reader. */
const C_FAILED = 2;
const C_STOP = 3;
/**
 * Set by a side about to sleep: the other side wakes it only then, and only once there is a batch of work (a
 * quarter of the ring, or the end of an input chunk), not for every group of records: a wake-up is a system call
 * and a context switch on each side.
 */
const C_WRITER_WAITS = 4;
const C_READER_WAITS = 5;
/** Row batches the reading thread has given back to the worker so far (shard-outbox.ts bounds those out). */
const C_RETURNED = 6;
/**
 * The longest the writer sleeps in a full ring before it takes the rows the workers sent (a worker waiting for its
 * row buffers to come back cannot wake it: it sleeps on another worker's ring).
 */
const ROOM_WAIT_MS = 10;
/** The longest a worker waiting for its row buffers sleeps before it looks whether it was told to stop. */
const RETURN_WAIT_MS = 50;
const WAKE_RECORDS = RING_RECORDS / 4;
/**
 * How long the writer waits for a worker that frees no record before giving up on it. A worker killed without
 * running its error handler (out of memory) never sets C_FAILED, and its exit event cannot reach a thread blocked
 * here; a live worker empties a quarter of the ring in milliseconds.
 */
export const STALL_LIMIT_MS = 30_000;

/** The shared memory of one ring, as sent to its worker. */
export interface RingMemory {
  records: SharedArrayBuffer;
  control: SharedArrayBuffer;
}

export function createRingMemory(): RingMemory {
  return {
    records: new SharedArrayBuffer(RING_RECORDS * RECORD_BYTES),
    control: new SharedArrayBuffer(32),
  };
}

/** Typed views of a ring's records. */
export class RingViews {
  readonly words: Int32Array;
  readonly numbers: Float64Array;
  readonly bytes: Uint8Array;
  readonly control: Int32Array;

  constructor(memory: RingMemory) {
    this.words = new Int32Array(memory.records);
    this.numbers = new Float64Array(memory.records);
    this.bytes = new Uint8Array(memory.records);
    this.control = new Int32Array(memory.control);
  }
}

/** The reading thread's side: `next()` gives the word offset of a free record, `done()` hands it over. */
export class RingWriter extends RingViews {
  private written = 0;
  private published = 0;
  private readSeen = 0;

  /**
   * `failed` is called (and should throw) when the worker failed while the writer would wait for it, with `stalled`
   * true when it freed no record for `stallLimitMs`. `takeRows` is called while the writer waits for room: it takes
   * the rows the workers have sent, so that a worker waiting for its row buffers to come back goes on (each would
   * wait for the other otherwise).
   */
  constructor(
    memory: RingMemory,
    private readonly failed: (stalled: boolean) => void,
    private readonly stallLimitMs = STALL_LIMIT_MS,
    private readonly takeRows: () => void = () => {},
  ) {
    super(memory);
  }

  /** The word offset of the next record; waits while the ring is full. */
  next(): number {
    if (((this.written - this.readSeen) | 0) === RING_RECORDS) this.waitForRoom();
    return (this.written & MASK) * RECORD_WORDS;
  }

  done(): void {
    this.written = (this.written + 1) | 0;
    if (((this.written - this.published) | 0) >= PUBLISH_EVERY) this.publish();
  }

  /**
   * Makes every record written so far visible to the worker, and wakes it when it sleeps and there is a batch of
   * work for it or `wake` (the end of an input chunk or of the capture).
   */
  publish(wake = false): void {
    if (this.published !== this.written) {
      this.published = this.written;
      Atomics.store(this.control, C_WRITTEN, this.written);
    }
    if (Atomics.load(this.control, C_READER_WAITS) === 0) return;
    if (wake || ((this.written - Atomics.load(this.control, C_READ)) | 0) >= WAKE_RECORDS) {
      Atomics.store(this.control, C_READER_WAITS, 0);
      Atomics.notify(this.control, C_WRITTEN);
    }
  }

  /** A row batch of the worker's was given back to it (after its message was posted on the returns port). */
  returned(): void {
    Atomics.add(this.control, C_RETURNED, 1);
    Atomics.notify(this.control, C_RETURNED);
  }

  /** Tells the worker to stop at once (cancellation or another worker's failure). */
  stop(): void {
    Atomics.store(this.control, C_STOP, 1);
    Atomics.notify(this.control, C_WRITTEN);
  }

  /** Sleeps until the worker has freed a quarter of the ring (or failed, or stalled). */
  private waitForRoom(): void {
    this.publish(true);
    let progress = Date.now();
    for (;;) {
      const read = Atomics.load(this.control, C_READ);
      if (read !== this.readSeen) progress = Date.now();
      this.readSeen = read;
      if (((this.written - this.readSeen) | 0) <= RING_RECORDS - WAKE_RECORDS) {
        // Lowered here too, not only by the worker that wakes this thread: the flag means "waiting now".
        Atomics.store(this.control, C_WRITER_WAITS, 0);
        return;
      }
      if (Atomics.load(this.control, C_FAILED) !== 0) this.failed(false);
      if (Date.now() - progress >= this.stallLimitMs) this.failed(true);
      this.takeRows();
      Atomics.store(this.control, C_WRITER_WAITS, 1);
      // Read again after raising the flag: a release in between either sees the flag or is seen here.
      if (Atomics.load(this.control, C_READ) !== this.readSeen) continue;
      Atomics.wait(this.control, C_READ, this.readSeen, ROOM_WAIT_MS);
    }
  }
}

/** The worker's side: `available()` waits for records; `record(i)` is the word offset of the i-th unread one. */
export class RingReader extends RingViews {
  private read = 0;
  private released = 0;

  /** Records written and not yet read, waiting up to `timeoutMs` when there are none; -1 when told to stop. */
  available(timeoutMs: number): number {
    let written = Atomics.load(this.control, C_WRITTEN);
    if (written === this.read) {
      this.release(true);
      Atomics.store(this.control, C_READER_WAITS, 1);
      // Read again after raising the flag: a publish in between either sees the flag or is seen here.
      written = Atomics.load(this.control, C_WRITTEN);
      if (written === this.read) {
        Atomics.wait(this.control, C_WRITTEN, this.read, timeoutMs);
        written = Atomics.load(this.control, C_WRITTEN);
      }
      Atomics.store(this.control, C_READER_WAITS, 0);
    }
    if (Atomics.load(this.control, C_STOP) !== 0) return -1;
    return (written - this.read) | 0;
  }

  /** The word offset of the next unread record. */
  get offset(): number {
    return (this.read & MASK) * RECORD_WORDS;
  }

  /** The next record was handled (its slot is freed in groups, see release). */
  advance(): void {
    this.read = (this.read + 1) | 0;
    if (((this.read - this.released) | 0) >= PUBLISH_EVERY) this.release(false);
  }

  /**
   * Gives the records read so far back to the writer; wakes it when it sleeps and a quarter of the ring is free,
   * or when `wake` (this worker is about to sleep or end).
   */
  release(wake: boolean): void {
    if (this.released !== this.read) {
      this.released = this.read;
      Atomics.store(this.control, C_READ, this.read);
    }
    if (Atomics.load(this.control, C_WRITER_WAITS) === 0) return;
    const used = (Atomics.load(this.control, C_WRITTEN) - this.read) | 0;
    if (wake || used <= RING_RECORDS - WAKE_RECORDS) {
      Atomics.store(this.control, C_WRITER_WAITS, 0);
      Atomics.notify(this.control, C_READ);
    }
  }

  /**
   * Waits while `sent − returned` row batches (sent so far, given back so far) are `limit` or more, so that rows
   * the reading thread cannot write as fast as they come do not pile up in its message queue; gives the records
   * read so far back first. The reading thread takes rows also while it waits for room in a ring (RingWriter's
   * `takeRows`), so the two never wait for each other. Returns at once after a stop.
   */
  waitForReturns(sent: number, limit: number): void {
    this.release(true);
    for (;;) {
      const returned = Atomics.load(this.control, C_RETURNED);
      if (((sent - returned) | 0) < limit || Atomics.load(this.control, C_STOP) !== 0) return;
      Atomics.wait(this.control, C_RETURNED, returned, RETURN_WAIT_MS);
    }
  }

  /** The worker failed: the writer must stop waiting for room. */
  fail(): void {
    Atomics.store(this.control, C_FAILED, 1);
    Atomics.notify(this.control, C_READ);
  }
}
