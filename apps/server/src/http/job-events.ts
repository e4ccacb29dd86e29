// Server-sent events of one job: its state now, then each change, until it finishes or the client leaves.
import type { FastifyReply, FastifyRequest } from "fastify";
import type { AppContext } from "../context.js";
import type { CurrentUser } from "../services/accounts.js";

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
    out.end();
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
        const job = await ctx.jobs.get(user, jobId).catch(() => null);
        if (!job) {
          out.write("event: deleted\ndata: {}\n\n");
          close();
          return;
        }
        out.write(`event: job\ndata: ${JSON.stringify(job)}\n\n`);
        if (FINISHED.has(job.status)) {
          close();
          return;
        }
      } while (again && !closed);
    } finally {
      sending = false;
    }
  };

  const unsubscribe = ctx.hub.subscribe(jobId, () => void send());
  const keepalive = setInterval(() => out.write(": keepalive\n\n"), KEEPALIVE_MS);
  request.raw.on("close", close);
  void send();
}
