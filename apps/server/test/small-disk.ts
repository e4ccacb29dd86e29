// Test harness: a small tmpfs as a server's data disk, so a test can fill it for real. The tmpfs is mounted in a user
// and mount namespace of its own (`unshare --user --map-root-user --mount`: no root needed where unprivileged user
// namespaces are allowed, and the host's mounts stay untouched), kept alive by a holder process; servers enter the
// namespace with nsenter, so a restarted server finds the same disk. The test reads the disk through
// /proc/<holder>/root, the holder's view of the file system.
import { type ChildProcess, spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

export interface SmallDisk {
  /** Where the disk is mounted, as the servers see it. */
  dir: string;
  /** The command line that starts a program inside the namespace. */
  launcher: string[];
  /** A path on the disk as this (the test's) process reaches it. */
  hostPath(...parts: string[]): string;
  /** Bytes an unprivileged writer may still write. */
  freeBytes(): number;
  /** Writes a file until the disk is full; returns its path (as the test reaches it). */
  fill(name: string): string;
  close(): Promise<void>;
}

export async function smallDisk(bytes: number): Promise<SmallDisk> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "tracemill-small-disk-"));
  const holder: ChildProcess = spawn(
    "unshare",
    [
      "--user",
      "--map-root-user",
      "--mount",
      "sh",
      "-c",
      'mount -t tmpfs -o size="$1" tracemill-test "$2" && echo mounted && exec sleep 1000000',
      "sh",
      String(bytes),
      dir,
    ],
    { stdio: ["ignore", "pipe", "pipe"] },
  );
  let output = "";
  await new Promise<void>((resolve, reject) => {
    const collect = (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes("mounted")) resolve();
    };
    holder.stdout?.on("data", collect);
    holder.stderr?.on("data", collect);
    holder.once("error", reject);
    holder.once("exit", (code) =>
      reject(new Error(`could not mount a tmpfs in a namespace (exit ${code}): ${output}`)),
    );
  });
  const root = `/proc/${holder.pid}/root`;
  const hostPath = (...parts: string[]) => path.join(root, dir, ...parts);
  return {
    dir,
    launcher: ["nsenter", "-t", String(holder.pid), "--user", "--mount", "--preserve-credentials", "--"],
    hostPath,
    freeBytes() {
      const stats = fs.statfsSync(hostPath());
      return stats.bavail * stats.bsize;
    },
    fill(name: string) {
      const file = hostPath(name);
      const fd = fs.openSync(file, "w");
      try {
        // Large blocks first, then single pages for what is left.
        for (const size of [1024 * 1024, 4096]) {
          const block = Buffer.alloc(size, 0x5a);
          for (;;) {
            try {
              fs.writeSync(fd, block);
            } catch (error) {
              if ((error as NodeJS.ErrnoException).code !== "ENOSPC") throw error;
              break;
            }
          }
        }
      } finally {
        fs.closeSync(fd);
      }
      return file;
    },
    async close() {
      if (holder.exitCode !== null) return;
      const exited = new Promise((resolve) => holder.once("exit", resolve));
      holder.kill("SIGKILL");
      await exited;
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
