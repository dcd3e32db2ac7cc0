#!/bin/bash
# How far cowrie's agents are from perfect play on Baghchal five-captures (threefold repetition a
# draw): self-play of each agent judged move by move against the solved database, and the perfect
# agent against each. Run from the repository root after
#   cargo build --release
#   target/release/cowrie solve --game baghchal --variant five-captures --out dbs/five-captures
# Writes runs/judge/ (the matches, with their records) and results/solve/agents/ (the CSVs).
set -euo pipefail
C=${C:-target/release/cowrie}
DB=${DB:-dbs/five-captures}
RUNS=${RUNS:-runs/judge}
OUT=results/solve/agents
RULES=(--game baghchal --variant five-captures --option repetition=threefold-draw --seed 1 --threads 2 --record --quiet)
name() { echo "$1" | tr ':=,' '---'; }
for a in heuristic expectimax:depth=1 expectimax:depth=2 expectimax:depth=3 expectimax:depth=4 \
    expectimax:depth=5 expectimax:depth=6 mcts:iterations=200 mcts:iterations=1000; do
  n=$(name "$a")
  [ -f "$RUNS/self-$n/manifest.json" ] && grep -q '"complete"' "$RUNS/self-$n/manifest.json" ||
    $C match "${RULES[@]}" --p1 "$a" --p2 "$a" --games 200 --out "$RUNS/self-$n"
  $C judge "$RUNS/self-$n/records.jsonl" --db "$DB" --out "$OUT/self-$n.csv" > /dev/null
done
# Against the perfect agent: 200 games where the opponent is quick, 40 where it is slow (drawn
# games with a perfect player run to the ply cap unless a position occurs three times).
for a in random:200 heuristic:200 expectimax:depth=1:200 expectimax:depth=2:200 expectimax:depth=3:200 \
    expectimax:depth=4:40 expectimax:depth=5:40 expectimax:depth=6:40 mcts:iterations=200:40 \
    mcts:iterations=1000:40; do
  games=${a##*:}; a=${a%:*}; n=$(name "$a")
  [ -f "$RUNS/perfect-v-$n/manifest.json" ] && grep -q '"complete"' "$RUNS/perfect-v-$n/manifest.json" ||
    $C match "${RULES[@]}" --p1 "perfect:db=$DB" --p2 "$a" --games "$games" --out "$RUNS/perfect-v-$n"
  $C judge "$RUNS/perfect-v-$n/records.jsonl" --db "$DB" --out "$OUT/perfect-v-$n.csv" > /dev/null
  cp "$RUNS/perfect-v-$n/summary.csv" "$OUT/perfect-v-$n-summary.csv"
  cp "$RUNS/perfect-v-$n/games.csv" "$OUT/perfect-v-$n-games.csv"
done
