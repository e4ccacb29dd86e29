#!/usr/bin/env bash
# Peak memory of `tracemill extract` on a 10 GB capture (the issue's bound: within 1 GB of RSS).
#
# Usage: bench/extract/memory.sh [CAPTURE]   (default /tmp/bench10/bench-large.pcap)
#   env OUT=DIR         scratch directory for the CSV (default: beside the capture; the CSV is about 1.1 GB)
#   env FEATURES=SETS   the feature sets (`--features`, default tracemill), e.g. tracemill,cic,nfstream
#
# The 10 GB capture is bench-large built with BENCH_LARGE_FACTOR=42 (docs/performance.md, "Benchmark captures"). Prints wall seconds, CPU seconds (user + sys), peak RSS, and the number of rows; the CSV is deleted
# afterwards.
set -euo pipefail
export LC_ALL=C

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
CAPTURE=${1:-/tmp/bench10/bench-large.pcap}
OUT=${OUT:-$(dirname "$CAPTURE")}
CLI="$ROOT/apps/cli/bin/tracemill.js"

[ -s "$CAPTURE" ] || { echo "no capture at $CAPTURE: give one as the argument (usage: bench/extract/memory.sh CAPTURE)" >&2; exit 1; }
echo "capture: $CAPTURE ($(du -h "$CAPTURE" | cut -f1)), features ${FEATURES:-tracemill}; machine: $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"
printf '%9s %9s %12s %10s\n' wall_s cpu_s peak_RSS_MB rows
csv="$OUT/memory-bench.csv"
/usr/bin/time -f '%e %U %S %M' -o "$OUT/memory-bench.time" "$CLI" extract "$CAPTURE" --features "${FEATURES:-tracemill}" -o "$csv"
read -r wall user sys rss <"$OUT/memory-bench.time"
rows=$(node -e 'console.log(JSON.parse(require("fs").readFileSync(process.argv[1])).csv.rows)' "${csv%.csv}.summary.json")
awk -v w="$wall" -v u="$user" -v s="$sys" -v r="$rss" -v rows="$rows" \
  'BEGIN { printf "%9.2f %9.2f %12.0f %10s\n", w, u + s, r / 1024, rows }'
rm -f "$csv" "${csv%.csv}.summary.json" "$OUT/memory-bench.time"
