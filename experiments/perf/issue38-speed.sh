#!/bin/bash
# Item 7 of issue #38: old (9d85337, before #38) and new binaries alternately, quiet machine.
set -e
# Build the old commit in a worktree with its own target folder, e.g.
#   git worktree add /tmp/old 9d85337c && (cd /tmp/old && CARGO_TARGET_DIR=/tmp/old-target cargo build --release -p anqi-engine --examples -p anqi-selfplay --bin anqi)
OLD=${OLD:-/tmp/old-target/release}; NEW=${NEW:-$(git rev-parse --show-toplevel)/target/release}; OUTDIR=${OUTDIR:-/tmp/speed}; mkdir -p "$OUTDIR"
for round in 1 2; do
  for side in old new; do
    B=$OLD; [ $side = new ] && B=$NEW
    $B/anqi perft --bench --variant all > $OUTDIR/perft-$side-$round.txt 2>&1
    $B/examples/search_speed 8 3 > $OUTDIR/ab-$side-$round.txt 2>&1
    $B/examples/expectimax_speed 3 3 > $OUTDIR/em-$side-$round.txt 2>&1
    $B/examples/ismcts_speed surprise 2000 3 > $OUTDIR/is-$side-$round.txt 2>&1
    $B/examples/game_search_speed missile 4 6 > $OUTDIR/gs-$side-$round.txt 2>&1
  done
done
for round in 1 2 3; do
  for side in old new; do
    B=$OLD; [ $side = new ] && B=$NEW
    $B/examples/search_speed 10 5 > $OUTDIR/ab10-$side-$round.txt 2>&1
    $B/examples/game_search_speed missile 5 6 > $OUTDIR/gs5-$side-$round.txt 2>&1
  done
done
echo done
