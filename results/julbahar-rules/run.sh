#!/bin/sh
# Julbahar's `ludii` - `barakat-1974` difference split into its parts: `ludii` differs from
# `barakat-1974` in two options (`opening=none`, `bonus=die`; `cowrie rules --game julbahar`),
# so the comparison runs the reference, each option changed alone, and both (`ludii`), under two
# agents of different construction: the heuristic, and the network shipped for `barakat-1974`
# played at 0 ply (no network is trained for the other rule sets, so the network is borrowed
# there). 10,000 matches to 31 per rule set and agent, self-play, seed 2026.
#
# Usage, from the repository root after `cargo build` (or set COWRIE to a binary):
#   sh results/julbahar-rules/run.sh
# An interrupted comparison continues with the same command (it passes --resume when the
# directory exists).
set -eu
C=${COWRIE:-target/debug/cowrie}
OUT=${OUT:-results/julbahar-rules}
for part in heuristic td; do
    case $part in
        heuristic) agent=heuristic ;;
        td) agent='td:weights=shipped:barakat-1974,ply=0' ;;
    esac
    resume=""
    [ -f "$OUT/$part/manifest.json" ] && resume="--resume"
    $C compare --game julbahar --set barakat-1974 --set barakat-1974+opening=none \
        --set barakat-1974+bonus=die --set ludii --agent "$agent" --games 10000 --seed 2026 \
        --threads 2 --out "$OUT/$part" --quiet $resume > "$OUT/$part.txt"
done
