// In-process notifications that a job changed, for server-sent events (the database stays the source of truth).
import { EventEmitter } from "node:events";

export function progressHub() {
  const emitter = new EventEmitter();
  emitter.setMaxListeners(0);
  return {
    changed(jobId: string): void {
      emitter.emit(jobId);
    },
    subscribe(jobId: string, listener: () => void): () => void {
      emitter.on(jobId, listener);
      return () => emitter.off(jobId, listener);
    },
    /** Jobs someone listens to now. */
    watched(): string[] {
      return emitter.eventNames().filter((name): name is string => typeof name === "string");
    },
  };
}

export type ProgressHub = ReturnType<typeof progressHub>;
