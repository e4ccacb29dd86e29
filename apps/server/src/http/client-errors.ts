// Requests Node's HTTP parser refuses before any route sees them (headers too large, a malformed request line, a
// request too slow to arrive) are answered in the API's error shape, {"messages": [...]}.
import http from "node:http";
import type { Socket } from "node:net";

/** What to answer for the parser's error codes; anything else is a plain 400. */
const ANSWERS: Record<string, [number, string]> = {
  HPE_HEADER_OVERFLOW: [431, "The request's headers are too large"],
  ERR_HTTP_REQUEST_TIMEOUT: [408, "The request took too long to arrive"],
};

export function answerClientError(error: Error & { code?: string }, socket: Socket): void {
  // A reset connection has nobody left to answer.
  if (error.code === "ECONNRESET" || socket.destroyed) return;
  const [status, message] = ANSWERS[error.code ?? ""] ?? [400, "The request could not be read as HTTP"];
  const body = JSON.stringify({ messages: [message] });
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${status} ${http.STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy();
}
