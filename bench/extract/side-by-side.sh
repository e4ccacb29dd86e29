#!/usr/bin/env bash
# `tracemill extract` beside softflowd on one capture, in alternating rounds (tracemill, then softflowd, ROUNDS times),
# so that the machine's drift touches both alike; prints each run, then each tool's median wall and CPU seconds and
# Tracemill's ratios to softflowd's medians (the throughput criterion of docs/performance.md).
#
# Usage: [ROUNDS=5] [NODIGEST=1] bench/extract/side-by-side.sh [CAPTURE]   (default /tmp/bench/bench-large.pcap;
#        build first: npm run build:cli)
#   NODIGEST=1  runs `extract --no-digest`, the pass as a server job runs it (the digest taken at upload)
#   BASE=CLI    also times another build's command each round (e.g. /tmp/base/apps/cli/bin/tracemill.js, from
#               `git worktree add /tmp/base <commit>` built there), to tell a change from the machine's drift
set -euo pipefail
export LC_ALL=C

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
CAPTURE=${1:-/tmp/bench/bench-large.pcap}
ROUNDS=${ROUNDS:-5}
CLI="$ROOT/apps/cli/bin/tracemill.js"
[ -s "$CAPTURE" ] || { echo "no capture at $CAPTURE (docs/performance.md, \"Benchmark captures\")" >&2; exit 1; }
[ -f "$ROOT/apps/cli/dist/bundle/main.js" ] || { echo "build first: npm run build:cli" >&2; exit 1; }
command -v softflowd >/dev/null || { echo "softflowd is not installed (apt install softflowd)" >&2; exit 1; }

OUT=$(mktemp -d)
trap 'rm -rf "$OUT"' EXIT
EXTRA=()
[ "${NODIGEST:-}" = 1 ] && EXTRA=(--no-digest)

# One run of a command: appends "wall cpu" (seconds) to $OUT/<name>.
measure() {
  local name=$1
  shift
  /usr/bin/time -f "%e %U %S" -o "$OUT/time" "$@" >/dev/null 2>"$OUT/stderr" || {
    cat "$OUT/stderr" >&2
    exit 1
  }
  awk '{ printf "%.2f %.2f\n", $1, $2 + $3 }' "$OUT/time" >>"$OUT/$name"
  echo "  $name: $(tail -1 "$OUT/$name") (wall s, CPU s)"
}

for round in $(seq "$ROUNDS"); do
  echo "round $round"
  rm -f "$OUT/f.csv" "$OUT/f.summary.json"
  measure tracemill "$CLI" extract "$CAPTURE" -o "$OUT/f.csv" "${EXTRA[@]}"
  measure softflowd softflowd -r "$CAPTURE" -v 9 -n 127.0.0.1:9
  if [ -n "${BASE:-}" ]; then
    rm -f "$OUT/f.csv" "$OUT/f.summary.json"
    measure base "$BASE" extract "$CAPTURE" -o "$OUT/f.csv" "${EXTRA[@]}"
  fi
done

median() { sort -n | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
tw=$(cut -d' ' -f1 "$OUT/tracemill" | median)
tc=$(cut -d' ' -f2 "$OUT/tracemill" | median)
sw=$(cut -d' ' -f1 "$OUT/softflowd" | median)
sc=$(cut -d' ' -f2 "$OUT/softflowd" | median)
echo "medians of $ROUNDS alternating rounds on $(basename "$CAPTURE"):"
echo "  tracemill extract${EXTRA:+ ${EXTRA[*]}}: ${tw} s wall, ${tc} CPU s"
echo "  softflowd: ${sw} s wall, ${sc} CPU s"
awk -v tw="$tw" -v tc="$tc" -v sw="$sw" -v sc="$sc" \
  'BEGIN { printf "  tracemill / softflowd: %.2f× wall, %.2f× CPU\n", tw / sw, tc / sc }'
if [ -n "${BASE:-}" ]; then
  bw=$(cut -d' ' -f1 "$OUT/base" | median)
  bc=$(cut -d' ' -f2 "$OUT/base" | median)
  echo "  base: ${bw} s wall, ${bc} CPU s"
  awk -v bw="$bw" -v bc="$bc" -v sw="$sw" -v sc="$sc" \
    'BEGIN { printf "  base / softflowd: %.2f× wall, %.2f× CPU\n", bw / sw, bc / sc }'
fi
