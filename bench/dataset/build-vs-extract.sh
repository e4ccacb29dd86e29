#!/usr/bin/env bash
# The cost of a dataset build beside a plain extraction of the same feature sets: `tracemill dataset build` (two sets,
# schedule labels over part of the capture, a host split, the audit) against `tracemill extract --format parquet`
# with the same sets (both take the capture's SHA-256: the card records it), in alternating rounds; prints each run, the medians and their ratio (the criterion of
# docs/performance.md: a build at most 1.5× the extraction).
#
# Usage: [ROUNDS=3] [SETS=tracemill,cic] bench/dataset/build-vs-extract.sh [CAPTURE]
#        (default /tmp/bench/bench-large.pcap; build first: npm run build:cli)
set -euo pipefail
export LC_ALL=C
unset NODE_EXTRA_CA_CERTS

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
CAPTURE=$(realpath "${1:-/tmp/bench/bench-large.pcap}")
ROUNDS=${ROUNDS:-3}
SETS=${SETS:-tracemill,cic}
CLI="$ROOT/apps/cli/bin/tracemill.js"
[ -s "$CAPTURE" ] || { echo "no capture at $CAPTURE (docs/performance.md, \"Benchmark captures\")" >&2; exit 1; }
[ -f "$ROOT/apps/cli/dist/bundle/main.js" ] || { echo "build first: npm run build:cli" >&2; exit 1; }

OUT=$(mktemp -d)
trap 'rm -rf "$OUT"' EXIT

# A schedule window over the capture's middle third, every IPv4 address an attacker and a victim of half the space:
# labels land on a real share of the sessions, as a lab's schedule would.
"$CLI" info "$CAPTURE" --json >"$OUT/info.json"
read -r first last < <(node -e '
  const i = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"));
  const a = Date.parse(i.firstPacket ?? i.timeSpan?.first ?? i.first), b = Date.parse(i.lastPacket ?? i.timeSpan?.last ?? i.last);
  const third = (b - a) / 3;
  console.log(new Date(a + third).toISOString(), new Date(a + 2 * third).toISOString());' "$OUT/info.json")
cat >"$OUT/spec.yaml" <<SPEC
name: bench
captures: [{ path: "$CAPTURE" }]
features: [${SETS//,/, }]
labels:
  schedule:
    timezone: UTC
    windows:
      - { id: w1, class: bench-attack, start: "$first", end: "$last", attackers: [0.0.0.0/1], victims: [128.0.0.0/1] }
split: { method: host, seed: 1 }
SPEC

for round in $(seq "$ROUNDS"); do
  echo "round $round"
  rm -rf "$OUT/ds" "$OUT/f.parquet"
  /usr/bin/time -f "%e %U %S %M" -o "$OUT/time" "$CLI" extract "$CAPTURE" -o "$OUT/f.parquet" --format parquet \
    --features "$SETS" >/dev/null 2>"$OUT/stderr" || { cat "$OUT/stderr" >&2; exit 1; }
  awk '{ printf "%.2f %.2f %d\n", $1, $2 + $3, $4 / 1024 }' "$OUT/time" >>"$OUT/extract"
  echo "  extract: $(tail -1 "$OUT/extract") (wall s, CPU s, peak MiB)"
  /usr/bin/time -f "%e %U %S %M" -o "$OUT/time" "$CLI" dataset build "$OUT/spec.yaml" -o "$OUT/ds" \
    >/dev/null 2>"$OUT/stderr" || { cat "$OUT/stderr" >&2; exit 1; }
  awk '{ printf "%.2f %.2f %d\n", $1, $2 + $3, $4 / 1024 }' "$OUT/time" >>"$OUT/dataset"
  echo "  dataset: $(tail -1 "$OUT/dataset") ($(head -1 "$OUT/stderr"))"
done

median() { sort -n | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
ew=$(cut -d' ' -f1 "$OUT/extract" | median); ec=$(cut -d' ' -f2 "$OUT/extract" | median)
dw=$(cut -d' ' -f1 "$OUT/dataset" | median); dc=$(cut -d' ' -f2 "$OUT/dataset" | median)
dm=$(cut -d' ' -f3 "$OUT/dataset" | median); em=$(cut -d' ' -f3 "$OUT/extract" | median)
echo "medians of $ROUNDS alternating rounds on $(basename "$CAPTURE"), sets $SETS:"
awk -v ew="$ew" -v ec="$ec" -v dw="$dw" -v dc="$dc" -v dm="$dm" -v em="$em" 'BEGIN {
  printf "  extract --format parquet: %6.2f s wall, %6.2f CPU s, %5d MiB peak\n", ew, ec, em
  printf "  dataset build:            %6.2f s wall (%.2f×), %6.2f CPU s (%.2f×), %5d MiB peak\n", dw, dw / ew, dc, dc / ec, dm }'
