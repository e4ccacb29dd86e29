// Server-sent events of one job: its state now, then each change, until it finishes or the client leaves.
import type { FastifyReply, FastifyRequest } from "fastify";
import type { AppContext } from "../context.js";
import type { CurrentUser } from "../services/accounts.js";
import { HttpError } from "../services/http-error.js";

const FINISHED = new Set(["succeeded", "failed", "cancelled"]);
const KEEPALIVE_MS = 15_000;

export function streamJobEvents(
  request: FastifyRequest,
  reply: FastifyReply,
  ctx: AppContext,
  user: CurrentUser | null,
  jobId: string,
): void {
  reply.hijack();
  const out = reply.raw;
  out.writeHead(200, {
    "Content-Type": "text/event-stream; charset=utf-8",
    "Cache-Control": "no-cache, no-transform",
    Connection: "keep-alive",
    "X-Accel-Buffering": "no",
  });
  let closed = false;
  let sending = false;
  let again = false;

  const close = () => {
    if (closed) return;
    closed = true;
    unsubscribe();
    clearInterval(keepalive);
    if (!out.destroyed) out.end();
  };
  /** A write after the client left (or the server closed the socket) is dropped, never an error event. */
  const write = (text: string) => {
    if (!closed && !out.destroyed) out.write(text);
  };

  // Changes arriving while one is being read collapse into one more read: a fast job never floods a slow client.
  const send = async () => {
    if (closed) return;
    if (sending) {
      again = true;
      return;
    }
    sending = true;
    try {
      do {
        again = false;
        // Gone (or no longer readable) is news for the client; a failed read just ends the stream, and the browser's
        // EventSource connects again.
        const job = await ctx.jobs.get(user, jobId).catch((error: unknown) => {
          if (error instanceof HttpError && error.status === 404) return null;
          throw error;
        });
        if (closed) return;
        if (!job) {
          write("event: deleted\ndata: {}\n\n");
          close();
          return;
        }
        write(`event: job\ndata: ${JSON.stringify(job)}\n\n`);
        if (FINISHED.has(job.status)) {
          close();
          return;
        }
      } while (again && !closed);
    } finally {
      sending = false;
    }
  };

  // Nothing here may reject unheard: a failure ends this stream, never the server.
  const update = () => void send().catch(close);
  const unsubscribe = ctx.hub.subscribe(jobId, update);
  const keepalive = setInterval(() => write(": keepalive\n\n"), KEEPALIVE_MS);
  request.raw.on("close", close);
  out.on("error", close);
  update();
}
