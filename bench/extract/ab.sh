#!/usr/bin/env bash
# Cold one-core `pass+csv` (read → features → CSV on one thread, engine-throughput.mjs) of another built checkout and
# of this one, alternately (and which one goes first alternates too), each run in a fresh process pinned to one core
# with the command's Node flags: the way to tell a change of a few per cent from the machine's drift, which moves
# single runs by more than that from hour to hour.
#
# Usage: bench/extract/ab.sh BASE_ROOT [ROUNDS] [CAPTURE]
#   BASE_ROOT  a checkout whose packages are built (`git worktree add /tmp/base <commit>`, then `npx tsc -b` there)
#   ROUNDS     pairs to run (default 5)
#   CAPTURE    default /tmp/bench/bench-large.pcap
#   env BASE_FLAGS / FLAGS   Node flags for the base and for this checkout (default: the command's,
#                            --no-concurrent-recompilation, for both)
# Prints each run's wall seconds, then the mean, minimum and maximum of each side.
set -euo pipefail
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
BASE=${1:?usage: bench/extract/ab.sh BASE_ROOT [ROUNDS] [CAPTURE]}
ROUNDS=${2:-5}
CAPTURE=${3:-/tmp/bench/bench-large.pcap}
BASE_FLAGS=${BASE_FLAGS---no-concurrent-recompilation}
FLAGS=${FLAGS---no-concurrent-recompilation}

run() { # ROOT FLAGS → wall seconds of one cold pass+csv
  # shellcheck disable=SC2086 # the flags are words
  PHASES=pass+csv taskset -c 0 node $2 "$1/bench/extract/engine-throughput.mjs" "$CAPTURE" | awk '$1 == "pass+csv" { print $2 }'
}

cat "$CAPTURE" >/dev/null
# The first run after that read is much slower than the next ones (the kernel moving the pages it reads a second
# time to its active list, apparently): one run, not counted, takes that cost.
echo "warm-up $(run "$ROOT" "$FLAGS") s (not counted)"
# The order alternates too: with the same code on both sides, the first run of a pair is slower on average, so a
# fixed order would favour the second.
for round in $(seq "$ROUNDS"); do
  if ((round % 2)); then
    echo "base $(run "$BASE" "$BASE_FLAGS")"
    echo "this $(run "$ROOT" "$FLAGS")"
  else
    echo "this $(run "$ROOT" "$FLAGS")"
    echo "base $(run "$BASE" "$BASE_FLAGS")"
  fi
done | awk '{ print; s[$1] += $2; n[$1]++; if (!($1 in lo) || $2 < lo[$1]) lo[$1] = $2; if ($2 > hi[$1]) hi[$1] = $2 }
  END { for (k in s) printf "%s: mean %.2f s, %.2f–%.2f s over %d runs\n", k, s[k] / n[k], lo[k], hi[k], n[k] }'
