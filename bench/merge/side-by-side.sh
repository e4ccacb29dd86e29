#!/usr/bin/env bash
# `tracemill merge` (the CLI, default options: midpoint) and mergecap alternated run by run, for the issue's
# criterion "at least as fast as mergecap": each round runs both, one right after the other, so both see the same
# load; every run's wall and CPU seconds (user + sys) and the one-minute load go to the log, then the medians and
# in how many rounds tracemill's wall (CPU) was at most mergecap's. For tracemill the log also has its main
# thread's CPU seconds (main-thread.mjs): hashing, reads and writes run on other threads, so on an idle machine
# its wall is about the larger of that and half its CPU; mergecap runs on one thread (its CPU is its main thread's).
#
# Usage: bench/merge/side-by-side.sh [BACKGROUND]   (default /tmp/bench/bench-small.pcap)
#   env ROUNDS=N    rounds (default 15)
#   env OUT=DIR     scratch directory (default /dev/shm/tracemill-side-by-side: tmpfs, so disk write-back does
#                   not swing the system time); holds one output at a time
#   env ATTACKS=F   attack capture (default test/fixtures/capture/attacks/stratosphere-malicious-7.pcap)
#   env BASE=CLI    also time this other build of the CLI (e.g. /tmp/base/apps/cli/bin/tracemill.js) each round
# mergecap gets the attacks already shifted by tracemill's shift (editcap -t, made once, not timed).
set -euo pipefail
export LC_ALL=C

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
BG=${1:-/tmp/bench/bench-small.pcap}
ATK=${ATTACKS:-$ROOT/test/fixtures/capture/attacks/stratosphere-malicious-7.pcap}
ROUNDS=${ROUNDS:-15}
OUT=${OUT:-/dev/shm/tracemill-side-by-side}
CLI="$ROOT/apps/cli/bin/tracemill.js"

[ -s "$BG" ] || { echo "no background capture at $BG" >&2; exit 1; }
[ -f "$ROOT/apps/cli/dist/bundle/main.js" ] || { echo "build first: npm run build" >&2; exit 1; }
rm -rf "$OUT" && mkdir -p "$OUT"
trap 'rm -rf "$OUT"' EXIT

shift_seconds=$(node "$CLI" merge "$BG" "$ATK" -o "$OUT/x.pcap" --json |
  node -e 'let d = ""; process.stdin.on("data", (c) => (d += c)).on("end", () => console.log(JSON.parse(d).placement.shiftSeconds))')
rm -f "$OUT"/x.*
editcap -t "$shift_seconds" "$ATK" "$OUT/shifted.pcap"

# run LABEL CMD...: one timed run (its output removed first and after), appended to the log.
run() {
  local label=$1
  shift
  rm -f "$OUT"/out.*
  /usr/bin/time -o "$OUT/time1" -f "%e %U %S" "$@" >/dev/null
  read -r wall user sys <"$OUT/time1"
  local main=-
  if [ -s "$OUT/main" ]; then main=$(cat "$OUT/main") && rm -f "$OUT/main"; fi
  echo "$label $wall $(awk -v u="$user" -v s="$sys" 'BEGIN { printf "%.2f", u + s }') $(cut -d' ' -f1 /proc/loadavg) $main" |
    tee -a "$OUT/log"
  rm -f "$OUT"/out.*
}

echo "$(basename "$BG"): tracemill merge vs mergecap, $ROUNDS rounds alternated, $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"
echo "label wall cpu load main-thread-cpu"
export MAIN_THREAD_LOG="$OUT/main"
TRACEMILL=(node --import "$HERE/main-thread.mjs" "$CLI" merge "$BG" "$ATK" -o "$OUT/out.pcap")
for ((i = 0; i < ROUNDS; i++)); do
  # Who goes first alternates too (the second may find the first one's output pages still being freed).
  if ((i % 2 == 0)); then
    run tracemill "${TRACEMILL[@]}"
    run mergecap mergecap -F pcap -w "$OUT/out.pcap" "$BG" "$OUT/shifted.pcap"
  else
    run mergecap mergecap -F pcap -w "$OUT/out.pcap" "$BG" "$OUT/shifted.pcap"
    run tracemill "${TRACEMILL[@]}"
  fi
  if [ -n "${BASE:-}" ]; then run base node --import "$HERE/main-thread.mjs" "$BASE" merge "$BG" "$ATK" -o "$OUT/out.pcap"; fi
done

median() { awk -v l="$1" -v f="$2" '$1 == l { print $f }' "$OUT/log" | sort -n | awk '{ a[NR] = $1 } END { print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2 }'; }
echo "medians (wall s, cpu s, main thread's cpu s) over $ROUNDS rounds, load now $(cut -d' ' -f1-3 /proc/loadavg):"
for label in tracemill mergecap ${BASE:+base}; do
  printf "  %-10s wall %5.2f   cpu %5.2f   main thread %s\n" "$label" "$(median "$label" 2)" "$(median "$label" 3)" \
    "$(if [ "$label" = mergecap ]; then median "$label" 3; else median "$label" 5; fi)"
done
# Rounds where tracemill was at least as fast: runs pair up in log order (tracemill, mergecap per round).
awk '$1 == "tracemill" { tw[++t] = $2; tc[t] = $3 } $1 == "mergecap" { mw[++m] = $2; mc[m] = $3 }
  END { for (i = 1; i <= t; i++) { w += tw[i] <= mw[i]; c += tc[i] <= mc[i] }
        printf "  tracemill at least as fast: wall in %d of %d rounds, cpu in %d of %d\n", w, t, c, t }' "$OUT/log"
