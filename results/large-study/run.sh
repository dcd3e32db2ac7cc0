#!/bin/sh
# The large study: each dice game's first-mover win rate to about +-1 point (95%, clustered by
# seat-swapped pair), the same agent in both seats. Every run is played as resumable shards
# (`cowrie match --shard K/N`, re-run a dead shard with --resume), joined by `cowrie merge` into
# the directory `cowrie compare` would write, and analysed by `cowrie compare --resume`, which
# verifies the joined runs against their manifests and writes compare.csv and compare.svg.
#
# Usage, from the repository root after `cargo build --release`:
#   sh results/large-study/run.sh            # the runs committed in results/large-study/
#   STRONG=1 sh results/large-study/run.sh   # also the stronger agents (see results/README.md)
#   STRONG=1 DEFAULT=0 sh results/large-study/run.sh   # the stronger agents only
#   STRONG=1 DEFAULT=0 PARTS=julbahar-td sh results/large-study/run.sh   # one part of them
# PLAY_ONLY=1 plays and merges without the comparisons. SHARDS (default 2) shards per run, played one after another here; on a cluster give each
# shard its own job, then run the merge and compare lines.
# Provenance of the committed stronger runs: frangieh-td1's binary was built at 490b9d4;
# julbahar-td's and bargese-ex2's (and frangieh-ludii's) from the working tree that was committed
# as fc37e4d (the Julbahar and Bargese networks, weights=shipped:VARIANT), so their manifests
# record its parent 0984222: re-run them from fc37e4d or later.
set -eu
C=${COWRIE:-target/release/cowrie}
OUT=${OUT:-results/large-study}
WORK=${WORK:-runs/large-study-shards}
SHARDS=${SHARDS:-2}
# The run seed of the study named large-study (experiments/src/run/seeds.rs: study_seed).
SEED=14958960951282968101

# one_run GAME DIR N VARIANT AGENT GAMES: the rule set's games, shard by shard, then merged.
one_run() {
    game=$1 dir=$2 n=$3 variant=$4 agent=$5 games=$6
    k=1
    while [ "$k" -le "$SHARDS" ]; do
        shard="$WORK/$dir-$variant-$k"
        resume=""
        [ -f "$shard/manifest.json" ] && resume="--resume"
        $C match --game "$game" --variant "$variant" --p1 "$agent" --p2 "$agent" --games "$games" \
            --seed "$SEED" --threads 2 --shard "$k/$SHARDS" --out "$shard" --quiet $resume > /dev/null
        k=$((k + 1))
    done
    rm -rf "$OUT/$dir/$n-$variant"
    mkdir -p "$OUT/$dir"
    $C merge --out "$OUT/$dir/$n-$variant" "$WORK/$dir-$variant"-* > /dev/null
}

# study GAME DIR AGENT GAMES VARIANT...: every variant's run, then the comparison.
study() {
    game=$1 dir=$2 agent=$3 games=$4
    shift 4
    n=1 sets=""
    for v in "$@"; do
        one_run "$game" "$dir" "$n" "$v" "$agent" "$games"
        sets="$sets --set $v"
        n=$((n + 1))
    done
    [ "${PLAY_ONLY:-0}" = 1 ] && return 0
    # shellcheck disable=SC2086
    $C compare --game "$game" $sets --agent "$agent" --games "$games" --seed "$SEED" \
        --threads 2 --out "$OUT/$dir" --resume --quiet > "$OUT/$dir/compare.txt"
}

if [ "${DEFAULT:-1}" = 1 ]; then
    study frangieh frangieh td:ply=0 20000 barakat-1974 modern
    study julbahar julbahar heuristic 20000 barakat-1974 ludii
    study bargese bargese heuristic 20000 finkel-2002 dlp-1604 summary ludii
fi

if [ "${STRONG:-0}" = 1 ]; then
    # Stronger agents, within 6 CPU-hours in all but not run for the committed default runs
    # (the costs per game: docs/benchmarks.md). PARTS picks some of them (default: all).
    # frangieh-td1: td:ply=1, the shipped networks searched one ply; julbahar-td: the network
    # shipped for barakat-1974 under both variants (it wins 99% of matches against
    # expectimax:depth=2; 20,000 matches, since 16,000 left the first mover's interval at +-1.1); bargese-ex2: expectimax:depth=2, the top of Bargese's ladder;
    # frangieh-ludii: Frangieh's ludii variant, which has no network, by expectimax:depth=2.
    PARTS=${PARTS:-frangieh-td1 julbahar-td bargese-ex2 frangieh-ludii}
    for part in $PARTS; do
        case $part in
        frangieh-td1) study frangieh frangieh-td1 td:ply=1 20000 barakat-1974 modern ;;
        julbahar-td)
            study julbahar julbahar-td td:weights=shipped:barakat-1974,ply=0 20000 \
                barakat-1974 ludii
            ;;
        bargese-ex2) study bargese bargese-ex2 expectimax:depth=2 16000 finkel-2002 ludii ;;
        frangieh-ludii)
            one_run frangieh frangieh-ludii 1 ludii expectimax:depth=2 20000
            [ "${PLAY_ONLY:-0}" = 1 ] || $C compare --game frangieh --set ludii \
                --agent expectimax:depth=2 --games 20000 --seed "$SEED" --threads 2 \
                --out "$OUT/frangieh-ludii" --resume --quiet > "$OUT/frangieh-ludii/compare.txt"
            ;;
        *) echo "unknown part '$part'" >&2; exit 2 ;;
        esac
    done
fi
