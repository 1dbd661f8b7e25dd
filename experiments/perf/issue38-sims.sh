#!/bin/bash
# Session 33, the self-play follow-up of issue #38: time the net bot's search per decision on
# fixed positions, old (9d85337, before #38) and new binaries alternately, so that the changed
# games of the re-pinned search (session 31) do not enter the comparison.
#   experiments/perf/issue38-sims.sh [SIMS] [ROUNDS]   (OLD, NEW as in issue38-speed.sh)
# The positions: every 6th ply (0-42) of game 1.1 of experiments/train/one-bot-games/
# one-bot-hybrid-jieqi.pgn, as Red's view FEN (`anqi actions --play`). Prints per round and
# build the summed `time_ms` of `anqi analyse --bot net:zoo=jieqi,sims=SIMS` over them.
set -e
S=${1:-400}; R=${2:-7}
OLD=${OLD:-/tmp/old-target/release}; NEW=${NEW:-$(git rev-parse --show-toplevel)/target/release}
ROOT=$(git rev-parse --show-toplevel)
FENS=$(mktemp)
read -r -a MOVES <<< "$(sed -n '/Round "1.1"/,/1-0$/p' "$ROOT/experiments/train/one-bot-games/one-bot-hybrid-jieqi.pgn" | grep -v '^\[' | tr '\n' ' ' | sed 's/[0-9]*\. //g; s/1-0//')"
for n in 0 6 12 18 24 30 36 42; do
  "$NEW/anqi" actions --variant jieqi --play "${MOVES[*]:0:$n}" | sed -n 's/^view //p' >> "$FENS"
done
for r in $(seq "$R"); do
  for side in old new; do
    B=$OLD; [ $side = new ] && B=$NEW
    tot=0
    while read -r f; do
      t=$(OMP_NUM_THREADS=1 "$B/anqi" analyse --variant jieqi --fen "$f" --bot "net:zoo=jieqi,sims=$S" | sed -n 's/.*time_ms \([0-9.]*\).*/\1/p')
      tot=$(echo "$tot + $t" | bc)
    done < "$FENS"
    echo "$r $side $tot"
  done
done
rm -f "$FENS"
