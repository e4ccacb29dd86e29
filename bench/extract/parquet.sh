#!/usr/bin/env bash
# `tracemill extract` to CSV and to Parquet, alternately (which goes first alternates too), on one capture: each run's
# wall and CPU seconds (user + sys) and peak RSS, then the medians of each side and the Parquet/CSV ratios. The issue's
# targets: Parquet output costs no more than CSV output for the same rows; memory within 1 GB on a 10 GB capture.
#
# Usage: bench/extract/parquet.sh [CAPTURE] [ROUNDS]   (default /tmp/bench/bench-large.pcap, 3 rounds)
#   env OUT=DIR   scratch directory for the outputs (default: a temporary directory; removed afterwards)
# Runs the built command (`npm run build:cli` first) without the input's digest (--no-digest), so that both sides
# measure the pass and its output alone.
set -euo pipefail
export LC_ALL=C

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
CAPTURE=${1:-/tmp/bench/bench-large.pcap}
ROUNDS=${2:-3}
OUT=${OUT:-$(mktemp -d)}
CLI="$ROOT/apps/cli/bin/tracemill.js"

[ -s "$CAPTURE" ] || { echo "no capture at $CAPTURE (usage: bench/extract/parquet.sh CAPTURE [ROUNDS])" >&2; exit 1; }
echo "capture: $CAPTURE ($(du -h "$CAPTURE" | cut -f1)); machine: $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"

run() { # FORMAT → "FORMAT wall cpu rss_MB bytes"
  local file="$OUT/parquet-bench.$1"
  /usr/bin/time -f '%e %U %S %M' -o "$OUT/parquet-bench.time" "$CLI" extract "$CAPTURE" --no-digest --format "$1" -o "$file"
  read -r wall user sys rss <"$OUT/parquet-bench.time"
  awk -v f="$1" -v w="$wall" -v u="$user" -v s="$sys" -v r="$rss" -v b="$(stat -c %s "$file")" \
    'BEGIN { printf "%s %.2f %.2f %.0f %d\n", f, w, u + s, r / 1024, b }'
  rm -f "$file" "${file%.*}.summary.json" "$OUT/parquet-bench.time"
}

cat "$CAPTURE" >/dev/null
run csv >/dev/null # warm-up, not counted
for round in $(seq "$ROUNDS"); do
  if ((round % 2)); then run csv; run parquet; else run parquet; run csv; fi
done | awk '
  { print; i = n[$1] + 0; wall[$1, i] = $2; cpu[$1, i] = $3; if ($4 > rss[$1]) rss[$1] = $4; bytes[$1] = $5; n[$1]++ }
  function median(a, f, k,   i, j, t, v) {
    for (i = 0; i < k; i++) v[i] = a[f, i] + 0
    for (i = 1; i < k; i++) for (j = i; j > 0 && v[j - 1] > v[j]; j--) { t = v[j]; v[j] = v[j - 1]; v[j - 1] = t }
    return k % 2 ? v[(k - 1) / 2] : (v[k / 2 - 1] + v[k / 2]) / 2
  }
  END {
    for (f in n) printf "%-8s median wall %.2f s, cpu %.2f s, peak RSS %d MB, %.1f MB written\n", f, median(wall, f, n[f]), median(cpu, f, n[f]), rss[f], bytes[f] / 1e6
    printf "parquet/csv: wall %.2f, cpu %.2f, size %.3f\n", median(wall, "parquet", n["parquet"]) / median(wall, "csv", n["csv"]),
      median(cpu, "parquet", n["parquet"]) / median(cpu, "csv", n["csv"]), bytes["parquet"] / bytes["csv"]
  }'
