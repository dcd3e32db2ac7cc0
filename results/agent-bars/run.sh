#!/bin/sh
# The strength bars of the learned and enhanced agents (docs/agents.md): each a 1,000-game match
# in seat-swapped pairs on shared dice, its games and summary committed here.
# Usage, from the repository root after `cargo build --release`: sh results/agent-bars/run.sh
# (PARTS picks some; default all). Each run is a pure function of its command.
set -eu
C=${COWRIE:-target/release/cowrie}
OUT=${OUT:-results/agent-bars}
THREADS=${THREADS:-2}
PARTS=${PARTS:-frangieh-td0-ex2 julbahar-td0-ex2 bargese-td1-ex2}
run() {
    name=$1
    shift
    resume=""
    [ -f "$OUT/$name/manifest.json" ] && resume="--resume"
    $C match "$@" --games 1000 --seed 1 --threads "$THREADS" --out "$OUT/$name" --quiet $resume > /dev/null
}
for part in $PARTS; do
    case $part in
    # td at its cheapest against expectimax:depth=2 on each dice game.
    frangieh-td0-ex2) run "$part" --game frangieh --variant modern --p1 td:ply=0 --p2 expectimax:depth=2 ;;
    julbahar-td0-ex2) run "$part" --game julbahar --p1 td:ply=0 --p2 expectimax:depth=2 ;;
    bargese-td1-ex2) run "$part" --game bargese --p1 td:ply=1 --p2 expectimax:depth=2 ;;
    *) echo "unknown part '$part'" >&2; exit 2 ;;
    esac
done
