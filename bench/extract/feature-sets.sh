#!/usr/bin/env bash
# The cost of feature sets: `tracemill extract --no-digest --features SETS` for each choice in alternating rounds (one
# run of each per round), so that the machine's drift touches every choice alike; prints each run, then each choice's
# median wall and CPU seconds, peak RSS and CSV size, and its ratio to the first choice's medians (the criterion of
# docs/performance.md: every set at most 1.6× the tracemill set alone).
#
# Usage: [ROUNDS=3] [CHOICES="tracemill tracemill,cic tracemill,nfstream tracemill,cic,nfstream"] \
#        bench/extract/feature-sets.sh [CAPTURE]    (default /tmp/bench/bench-large.pcap; build first: npm run build:cli)
set -euo pipefail
export LC_ALL=C

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
CAPTURE=${1:-/tmp/bench/bench-large.pcap}
ROUNDS=${ROUNDS:-3}
CHOICES=${CHOICES:-"tracemill tracemill,cic tracemill,nfstream tracemill,cic,nfstream"}
CLI="$ROOT/apps/cli/bin/tracemill.js"
[ -s "$CAPTURE" ] || { echo "no capture at $CAPTURE (docs/performance.md, \"Benchmark captures\")" >&2; exit 1; }
[ -f "$ROOT/apps/cli/dist/bundle/main.js" ] || { echo "build first: npm run build:cli" >&2; exit 1; }

OUT=$(mktemp -d)
trap 'rm -rf "$OUT"' EXIT

for round in $(seq "$ROUNDS"); do
  echo "round $round"
  for choice in $CHOICES; do
    rm -f "$OUT/f.csv" "$OUT/f.summary.json"
    /usr/bin/time -f "%e %U %S %M" -o "$OUT/time" "$CLI" extract "$CAPTURE" -o "$OUT/f.csv" --no-digest \
      --features "$choice" >/dev/null 2>"$OUT/stderr" || { cat "$OUT/stderr" >&2; exit 1; }
    awk -v size="$(stat -c %s "$OUT/f.csv")" '{ printf "%.2f %.2f %d %d\n", $1, $2 + $3, $4 / 1024, size / 1048576 }' \
      "$OUT/time" >>"$OUT/$choice"
    echo "  $choice: $(tail -1 "$OUT/$choice") (wall s, CPU s, peak MiB, CSV MiB)"
  done
done

median() { sort -n | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
echo "medians of $ROUNDS alternating rounds on $(basename "$CAPTURE"):"
first=""
for choice in $CHOICES; do
  w=$(cut -d' ' -f1 "$OUT/$choice" | median)
  c=$(cut -d' ' -f2 "$OUT/$choice" | median)
  m=$(cut -d' ' -f3 "$OUT/$choice" | median)
  s=$(cut -d' ' -f4 "$OUT/$choice" | median)
  [ -z "$first" ] && { fw=$w; fc=$c; first=$choice; }
  awk -v n="$choice" -v w="$w" -v c="$c" -v m="$m" -v s="$s" -v fw="$fw" -v fc="$fc" \
    'BEGIN { printf "  %-26s %6.2f s wall (%.2f×), %6.2f CPU s (%.2f×), %5d MiB peak, %6d MiB CSV\n", n, w, w / fw, c, c / fc, m, s }'
done
