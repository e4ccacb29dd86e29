#!/usr/bin/env bash
# Benchmarks `tracemill merge` side by side with mergecap on the benchmark capture (bench-small by default).
#
# Usage: bench/merge/run.sh [BACKGROUND]   (default /tmp/bench/bench-small.pcap; see docs/performance.md,
#        "Benchmark captures")
#   env RUNS=N      repetitions per command, the median is printed (default 5)
#   env OUT=DIR     scratch directory (default /tmp/tracemill-bench-merge; about 3x the background's size)
#   env ATTACKS=F   attack capture (default test/fixtures/capture/attacks/stratosphere-malicious-7.pcap)
#
# First the CLI's fixed cost: `tracemill --version` (Node start-up, commander and the command declarations; each
# command loads its engine code only when it runs). Then for each scenario it times, with the same inputs and
# output format (pcap):
#   tracemill   tracemill merge BG ATK (midpoint): both passes, SHA-256, provenance, summary; includes the CLI's start-up
#   engine      the same through mergeCaptures() in a bare Node process (engine-merge.mjs): the capability alone
#               (inputs hashed where the engine chooses: a worker fed the passes' chunks while a core is idle,
#               else the main thread from the same chunks)
#   engine/wkr  the engine hashing in the worker whatever the load
#   engine+sha  the engine given both inputs' SHA-256 (inputHashes), as a server job passes its uploads' digests
#   mergecap    mergecap -F pcap BG SHIFTED, with SHIFTED = editcap -t <tracemill's shift> ATK made beforehand
#   pipeline    what the same job takes with Wireshark's tools: capinfos (midpoint) + editcap -t + mergecap
# and prints wall seconds, CPU seconds (user+sys) and peak RSS. Scenarios: the background as built (it holds
# out-of-order packets, which tracemill puts back in order and mergecap does not, so outputs differ there),
# and the background sorted with reordercap, where the two outputs must be byte-identical (checked with cmp).
set -euo pipefail
export LC_ALL=C

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
BG=${1:-/tmp/bench/bench-small.pcap}
ATK=${ATTACKS:-$ROOT/test/fixtures/capture/attacks/stratosphere-malicious-7.pcap}
RUNS=${RUNS:-5}
OUT=${OUT:-/tmp/tracemill-bench-merge}
CLI="$ROOT/apps/cli/bin/tracemill.js"

[ -s "$BG" ] || { echo "no background capture at $BG: give one as the argument (docs/performance.md, \"Benchmark captures\")" >&2; exit 1; }
[ -s "$ATK" ] || { echo "no attack capture at $ATK" >&2; exit 1; }
for t in mergecap editcap capinfos reordercap node; do
  command -v "$t" >/dev/null || { echo "missing tool: $t" >&2; exit 1; }
done
[ -f "$ROOT/apps/cli/dist/bundle/main.js" ] || { echo "build first: npm run build" >&2; exit 1; }
rm -rf "$OUT" && mkdir -p "$OUT"

# timed LABEL OUTPUT CMD...: runs CMD $RUNS times, prints the median wall / CPU / max RSS. OUTPUT, the file CMD
# writes, is removed before each run: replacing a large file costs the replacing process system time on ext4
# (freeing the old blocks, flushing the new file's), noise that is no tool's own work.
timed() {
  local label=$1 output=$2 i
  shift 2
  : >"$OUT/times"
  for ((i = 0; i < RUNS; i++)); do
    rm -f "$output"
    /usr/bin/time -o "$OUT/time1" -f "%e %U %S %M" "$@" >/dev/null
    cat "$OUT/time1" >>"$OUT/times"
  done
  local m=$(((RUNS + 1) / 2)) wall cpu rss
  wall=$(cut -d' ' -f1 "$OUT/times" | sort -n | sed -n "${m}p")
  cpu=$(awk '{ print $2 + $3 }' "$OUT/times" | sort -n | sed -n "${m}p")
  rss=$(cut -d' ' -f4 "$OUT/times" | sort -n | tail -1)
  printf "  %-10s wall %6.2f s   cpu %6.2f s   peak rss %5d MB\n" "$label" "$wall" "$cpu" $((rss / 1024))
}

scenario() {
  local name=$1 bg=$2
  echo "$name: $(capinfos -c -M "$bg" | awk -F': *' '/Number of packets/ {print $2}') + $(capinfos -c -M "$ATK" | awk -F': *' '/Number of packets/ {print $2}') packets"
  node "$CLI" merge "$bg" "$ATK" -o "$OUT/tracemill.pcap" --json >"$OUT/summary.json"
  local shift
  shift=$(node -e 'console.log(JSON.parse(require("fs").readFileSync(process.argv[1])).placement.shiftSeconds)' "$OUT/summary.json")
  editcap -t "$shift" "$ATK" "$OUT/shifted.pcap"
  timed tracemill "$OUT/tracemill.pcap" node "$CLI" merge "$bg" "$ATK" -o "$OUT/tracemill.pcap"
  timed engine "$OUT/engine.pcap" node "$HERE/engine-merge.mjs" "$bg" "$ATK" "$OUT"
  HASHING=worker timed engine/wkr "$OUT/engine.pcap" node "$HERE/engine-merge.mjs" "$bg" "$ATK" "$OUT"
  local digests
  digests=$(sha256sum "$bg" "$ATK" | cut -d' ' -f1)
  # shellcheck disable=SC2086 # two digests, two arguments
  timed engine+sha "$OUT/engine.pcap" node "$HERE/engine-merge.mjs" "$bg" "$ATK" "$OUT" $digests
  timed mergecap "$OUT/mergecap.pcap" mergecap -F pcap -w "$OUT/mergecap.pcap" "$bg" "$OUT/shifted.pcap"
  timed pipeline "$OUT/pipeline.pcap" bash -c 'capinfos -a -e -S "$1" >/dev/null && capinfos -a -S "$2" >/dev/null &&
    editcap -t "$3" "$2" "$4/shifted2.pcap" && mergecap -F pcap -w "$4/pipeline.pcap" "$1" "$4/shifted2.pcap"' _ \
    "$bg" "$ATK" "$shift" "$OUT"
  if cmp -s "$OUT/tracemill.pcap" "$OUT/mergecap.pcap"; then echo "  outputs: byte-identical"
  else echo "  outputs: differ (out-of-order packets in the background: $(node -e 'console.log(JSON.parse(require("fs").readFileSync(process.argv[1])).outOfOrder.background)' "$OUT/summary.json") put back in order by tracemill)"
  fi
  cmp -s "$OUT/engine.pcap" "$OUT/tracemill.pcap" || { echo "engine and CLI outputs differ" >&2; exit 1; }
  # The record says the same with the digests given as when hashed (only the output names differ).
  sed 's/engine\.pcap/tracemill.pcap/' "$OUT/engine.provenance.jsonl" | cmp -s - "$OUT/tracemill.provenance.jsonl" ||
    { echo "engine (digests given) and CLI provenance records differ" >&2; exit 1; }
  rm -f "$OUT"/*.pcap "$OUT"/*.jsonl "$OUT"/*.summary.json
}

echo "tracemill merge vs mergecap, median of $RUNS runs, $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"
timed cli-start "$OUT/none" node "$CLI" --version
scenario "bench as built ($(basename "$BG"))" "$BG"
reordercap "$BG" "$OUT/sorted-bg.pcap" >/dev/null
scenario "bench sorted with reordercap" "$OUT/sorted-bg.pcap"
rm -rf "$OUT"
