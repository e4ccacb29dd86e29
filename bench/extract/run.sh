#!/usr/bin/env bash
# Benchmarks `tracemill extract` beside tshark's conversation statistics, argus and softflowd on one large capture.
#
# Usage: bench/extract/run.sh [CAPTURE]   (default /tmp/bench/bench-large.pcap; bench-small.pcap for a quick run;
#        see docs/performance.md, "Benchmark captures")
#   env TOOLS="tracemill nodigest tracemill1 pipeline1 engine argus softflowd tshark"   which to run (tshark takes
#                                                                                      minutes on bench-large)
#   env OUT=DIR                                            scratch directory (default /tmp/tracemill-bench-extract)
#
# Each tool reads the same file once and computes bidirectional sessions:
#   tracemill  tracemill extract CAPTURE -o OUT/f.csv: read → decode → flows → 50 features → CSV + summary
#              (the input's SHA-256, of the chunks the reader read, on a worker thread); includes the CLI's start-up.
#              The command runs as an executable file, as `npx tracemill` runs it, so that its first line's Node
#              flags apply (PASS_PROCESS_FLAGS: docs/performance.md, "Design decisions")
#   nodigest   the same with --no-digest: the pass as a server job runs it (the input's digest taken at upload)
#   tracemill1 the same pinned to one core (taskset -c 0): every thread (hashing, libuv's pool, V8's helpers) shares
#              it, so its wall time is everything the command does on one core
#   pipeline1  read → features → CSV on one core: engine-throughput.mjs's pass+csv alone in a process pinned to one
#              core (taskset -c 0) with the command's Node flags, the CSV written to a temporary file and rows waiting
#              for order beyond 64 MiB spilled as the command does; what tracemill1 adds is the summary's SHA-256 of
#              the input and the command's start-up
#   engine     engine-throughput.mjs, CPU time per phase: read + decode alone, the same with the SHA-256, the pass
#              through runFlowPipeline() without rows, with the rows formatted and ordered but not written, and
#              with them written (pass+csv: read → features → CSV on one thread, without the SHA-256; run it with
#              taskset -c 0 for that pipeline on one core), in a Node started with the command's flags
#   argus      argus -r CAPTURE -w OUT/a.argus (bidirectional flow records, C)
#   softflowd  softflowd -r CAPTURE -v 9 -n 127.0.0.1:9 (NetFlow fields only, C)
#   tshark     tshark -q -z conv,tcp -z conv,udp -r CAPTURE
# and prints wall seconds, CPU seconds (user+sys), packets per wall second and per CPU second, and peak RSS.
set -euo pipefail
export LC_ALL=C

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
CAPTURE=${1:-/tmp/bench/bench-large.pcap}
TOOLS=${TOOLS:-"tracemill nodigest tracemill1 pipeline1 engine argus softflowd tshark"}
OUT=${OUT:-/tmp/tracemill-bench-extract}
CLI="$ROOT/apps/cli/bin/tracemill.js"

[ -s "$CAPTURE" ] || { echo "no capture at $CAPTURE: give one as the argument (docs/performance.md, \"Benchmark captures\")" >&2; exit 1; }
mkdir -p "$OUT"
echo "capture: $CAPTURE ($(du -h "$CAPTURE" | cut -f1)); machine: $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"
echo "warming the page cache…"
cat "$CAPTURE" >/dev/null

"$CLI" extract "$CAPTURE" -o "$OUT/f.csv"
PACKETS=$(node -e 'console.log(JSON.parse(require("fs").readFileSync(process.argv[1])).packets.read)' "$OUT/f.summary.json")
SESSIONS=$(node -e 'console.log(JSON.parse(require("fs").readFileSync(process.argv[1])).sessions.total)' "$OUT/f.summary.json")
echo "packets: $PACKETS, Tracemill sessions: $SESSIONS"
printf '%-10s %9s %9s %12s %12s %10s\n' tool wall_s cpu_s packets/s packets/cpu_s peak_MB

measure() {
  local name=$1
  shift
  /usr/bin/time -f '%e %U %S %M' -o "$OUT/time.txt" "$@" >/dev/null 2>"$OUT/$name.err" || {
    echo "$name failed: $(tail -3 "$OUT/$name.err")" >&2
    return
  }
  read -r wall user sys rss <"$OUT/time.txt"
  awk -v n="$name" -v w="$wall" -v u="$user" -v s="$sys" -v r="$rss" -v p="$PACKETS" \
    'BEGIN { c = u + s; printf "%-10s %9.2f %9.2f %12.0f %12.0f %10.0f\n", n, w, c, (w > 0 ? p / w : 0), (c > 0 ? p / c : 0), r / 1024 }'
}

for tool in $TOOLS; do
  case $tool in
    tracemill) measure tracemill "$CLI" extract "$CAPTURE" -o "$OUT/f.csv" ;;
    nodigest) measure nodigest "$CLI" extract "$CAPTURE" -o "$OUT/f.csv" --no-digest ;;
    tracemill1) measure tracemill1 taskset -c 0 "$CLI" extract "$CAPTURE" -o "$OUT/f.csv" ;;
    pipeline1)
      PHASES=pass+csv measure pipeline1 taskset -c 0 node --no-concurrent-recompilation "$HERE/engine-throughput.mjs" \
        "$CAPTURE"
      ;;
    engine) node --no-concurrent-recompilation "$HERE/engine-throughput.mjs" "$CAPTURE" ;;
    argus) measure argus argus -r "$CAPTURE" -w "$OUT/a.argus" ;;
    softflowd) measure softflowd softflowd -r "$CAPTURE" -v 9 -n 127.0.0.1:9 ;;
    tshark) measure tshark tshark -q -z conv,tcp -z conv,udp -r "$CAPTURE" ;;
    *) echo "unknown tool $tool" >&2 ;;
  esac
done
rm -f "$OUT/a.argus"
