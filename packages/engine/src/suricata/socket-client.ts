// A connection to a Suricata command socket (suricatasc's protocol): a version handshake, then one JSON command per
// line, each answered by one JSON line `{"return": "OK"|"NOK", "message": …}`. Commands are sent one at a time.
import net from "node:net";

/** Suricata 7's protocol version: it closes the connection on any other. */
const PROTOCOL_VERSION = "0.2";
/** A command Suricata does not answer within this long means a hung engine. */
const defaultCommandMs = 15_000;

export interface SocketAnswer {
  return: "OK" | "NOK";
  message?: unknown;
}

/** The socket cannot be reached, stopped answering, or closed: the engine behind it is gone or hung. */
export class SocketLost extends Error {
  override name = "SocketLost";
}

export class SuricataSocket {
  private buffer = "";
  private waiting: { resolve: (answer: SocketAnswer) => void; reject: (error: Error) => void } | undefined;
  private closed: Error | undefined;

  private constructor(
    private readonly socket: net.Socket,
    private readonly timeoutMs: number,
  ) {
    socket.setEncoding("utf8");
    socket.on("data", (text: string) => {
      this.buffer += text;
      const nl = this.buffer.indexOf("\n");
      if (nl < 0 || !this.waiting) return;
      const line = this.buffer.slice(0, nl);
      this.buffer = this.buffer.slice(nl + 1);
      const { resolve, reject } = this.waiting;
      this.waiting = undefined;
      try {
        resolve(JSON.parse(line) as SocketAnswer);
      } catch {
        reject(new SocketLost(`Suricata answered something that is not JSON: ${line.slice(0, 200)}`));
      }
    });
    const end = (why: string) => {
      this.closed ??= new SocketLost(why);
      this.waiting?.reject(this.closed);
      this.waiting = undefined;
    };
    socket.on("error", (error) => end(`Suricata's socket failed: ${error.message}`));
    socket.on("close", () => end("Suricata closed its socket"));
  }

  /**
   * Connects and shakes hands; rejects with SocketLost when nothing answers there. `timeoutMs` is how long each
   * command of this connection may wait for its answer (default 15 s).
   */
  static async connect(file: string, timeoutMs = defaultCommandMs): Promise<SuricataSocket> {
    const socket = net.createConnection(file);
    await new Promise<void>((resolve, reject) => {
      socket.once("connect", resolve);
      socket.once("error", (error) => reject(new SocketLost(`no Suricata answers at ${file}: ${error.message}`)));
    });
    const client = new SuricataSocket(socket, timeoutMs);
    const answer = await client.send({ version: PROTOCOL_VERSION }, timeoutMs);
    if (answer.return !== "OK") {
      client.close();
      throw new SocketLost(`Suricata at ${file} refused protocol ${PROTOCOL_VERSION}`);
    }
    return client;
  }

  /** Runs `command`; NOK answers are results (their message says why), a lost or silent socket rejects. */
  command(command: string, args?: Record<string, unknown>, timeoutMs = this.timeoutMs): Promise<SocketAnswer> {
    return this.send(args ? { command, arguments: args } : { command }, timeoutMs);
  }

  close(): void {
    this.closed ??= new SocketLost("closed");
    this.socket.destroy();
  }

  private send(message: unknown, timeoutMs: number): Promise<SocketAnswer> {
    if (this.closed) return Promise.reject(this.closed);
    if (this.waiting) return Promise.reject(new Error("one Suricata command at a time"));
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiting = undefined;
        this.close();
        reject(new SocketLost(`Suricata did not answer within ${Math.round(timeoutMs / 1000)} s`));
      }, timeoutMs);
      this.waiting = {
        resolve: (answer) => {
          clearTimeout(timer);
          resolve(answer);
        },
        reject: (error) => {
          clearTimeout(timer);
          reject(error);
        },
      };
      // Suricata reads a command up to its newline.
      this.socket.write(`${JSON.stringify(message)}\n`);
    });
  }
}
