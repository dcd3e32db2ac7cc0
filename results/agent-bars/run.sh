#!/bin/sh
# The strength bars of the learned and enhanced agents (docs/agents.md): each a 1,000-game match
# in seat-swapped pairs on shared dice, its games and summary committed here.
# Usage, from the repository root after `cargo build --release`: sh results/agent-bars/run.sh
# (PARTS picks some; default all). Each run is a pure function of its command.
# Provenance: the Frangieh and Julbahar td runs were played by a binary built from the working tree
# committed as fc37e4d (its manifests record the parent 0984222); the two Bargese runs with the
# bargese-tracks-2 network by one built from the tree committed after c452a7a (which their manifests
# record), on THREADS=2. Re-run them from those commits or later.
set -eu
C=${COWRIE:-target/release/cowrie}
OUT=${OUT:-results/agent-bars}
THREADS=${THREADS:-2}
PARTS=${PARTS:-frangieh-td0-ex2 julbahar-td0-ex2 bargese-td1-ex2 baghchal-mcts-h frangieh-mcts-h
julbahar-mcts-h bargese-mcts-h frangieh-ludii-td0-ex2 frangieh-ludii-td0-lent julbahar-ludii-td0-ex2
julbahar-ludii-td0-lent}
# The enhanced MCTS (docs/agents.md): progressive bias, solver, widening, tree reuse; the dice games
# with their shipped network at the leaves (cutoff=0), Baghchal with greedy rollouts of 4 plies.
E=bias=1,solver=on,widen=2,reuse=on
run() {
    name=$1
    shift
    resume=""
    [ -f "$OUT/$name/manifest.json" ] && resume="--resume"
    $C match "$@" --games 1000 --seed "$seed" --threads "$THREADS" --out "$OUT/$name" --quiet $resume > /dev/null
}
for part in $PARTS; do
    seed=1
    case $part in
    # td at its cheapest against expectimax:depth=2 on each dice game.
    frangieh-td0-ex2) run "$part" --game frangieh --variant modern --p1 td:ply=0 --p2 expectimax:depth=2 ;;
    julbahar-td0-ex2) run "$part" --game julbahar --p1 td:ply=0 --p2 expectimax:depth=2 ;;
    bargese-td1-ex2) run "$part" --game bargese --p1 td:ply=1 --p2 expectimax:depth=2 ;;
    # The enhanced MCTS against the heuristic on each game, at budgets of a few milliseconds a move.
    baghchal-mcts-h)
        run "$part" --game baghchal --p1 "mcts:iterations=2000,$E,rollout=heuristic,cutoff=4" --p2 heuristic
        ;;
    frangieh-mcts-h)
        run "$part" --game frangieh --variant modern --p1 "mcts:iterations=1000,cutoff=0,$E,net=shipped" \
            --p2 heuristic
        ;;
    julbahar-mcts-h)
        run "$part" --game julbahar --p1 "mcts:iterations=200,cutoff=0,$E,net=shipped" --p2 heuristic
        ;;
    bargese-mcts-h)
        run "$part" --game bargese --p1 "mcts:iterations=1000,cutoff=0,$E,net=shipped" --p2 heuristic
        ;;
    # The networks trained under each ludii variant, on seed 7: against expectimax:depth=2, and
    # against the network lent by barakat-1974 that played ludii before them.
    frangieh-ludii-td0-ex2)
        seed=7
        run "$part" --game frangieh --variant ludii --p1 td:ply=0 --p2 expectimax:depth=2
        ;;
    frangieh-ludii-td0-lent)
        seed=7
        run "$part" --game frangieh --variant ludii --p1 td:ply=0 --p2 'td:weights=shipped:barakat-1974,ply=0'
        ;;
    julbahar-ludii-td0-ex2)
        seed=7
        run "$part" --game julbahar --variant ludii --p1 td:ply=0 --p2 expectimax:depth=2
        ;;
    julbahar-ludii-td0-lent)
        seed=7
        run "$part" --game julbahar --variant ludii --p1 td:ply=0 --p2 'td:weights=shipped:barakat-1974,ply=0'
        ;;
    *) echo "unknown part '$part'" >&2; exit 2 ;;
    esac
done
