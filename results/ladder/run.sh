#!/bin/sh
# The strong rungs of the ladders (docs/agents.md): each `<game>-strong/` ladder starts at the top
# rung of `<game>/` (its manifest gives that ladder's command) and climbs through the learned and
# enhanced agents; `frangieh-modern/` does the same on Frangieh's `modern` variant, up to GNU
# Backgammon 0-ply (run `python3 tools/gnubg_agent.py --install` first). `td:ply=2` has no rung: at
# about 85 ms a move on Frangieh it is above the ladders' budget of about 50 ms.
# Usage, from the repository root after `cargo build --release`: sh results/ladder/run.sh
# (PARTS picks some; default all). Each ladder is a pure function of its command; an interrupted
# one continues with the same command (`--resume` is added when its manifest exists).
set -eu
C=${COWRIE:-target/release/cowrie}
OUT=${OUT:-results/ladder}
THREADS=${THREADS:-2}
# The enhanced MCTS: progressive bias, solver, widening, tree reuse (docs/agents.md).
E=bias=1,solver=on,widen=2,reuse=on
# Julbahar's ladder plays single games (unit=game): the network trained on single games.
JW=agents/weights/julbahar-barakat-1974-unit-game.safetensors
G="external:cmd=python3 tools/gnubg_agent.py --ply 0"
ALL="frangieh-strong julbahar-strong bargese-strong baghchal-strong frangieh-modern"
PARTS=${PARTS:-$ALL}
for part in $PARTS; do
    case " $ALL " in
    *" $part "*) ;;
    *) echo "unknown part '$part' (the parts: $ALL)" >&2; exit 2 ;;
    esac
done
ladder() {
    name=$1
    shift
    resume=""
    [ -f "$OUT/$name/manifest.json" ] && resume="--resume"
    $C ladder "$@" --games-per-pair 400 --seed 1 --threads "$THREADS" --quiet \
        --out "$OUT/$name" --csv "$OUT/$name.csv" $resume > /dev/null
}
for part in $PARTS; do
    case $part in
    frangieh-strong)
        ladder "$part" --game frangieh --rung expectimax:depth=2 \
            --rung "mcts:iterations=1000,cutoff=0,$E,net=shipped" --rung td:ply=0 --rung td:ply=1
        ;;
    julbahar-strong)
        ladder "$part" --game julbahar --option unit=game --rung expectimax:depth=2 \
            --rung "mcts:iterations=200,cutoff=0,$E,net=$JW" --rung "td:weights=$JW,ply=0" \
            --rung "td:weights=$JW,ply=1"
        ;;
    bargese-strong)
        ladder "$part" --game bargese --rung expectimax:depth=2 \
            --rung "mcts:iterations=1000,cutoff=0,$E,net=shipped" --rung td:ply=0 --rung td:ply=1
        ;;
    baghchal-strong)
        ladder "$part" --game baghchal --option repetition=threefold-draw --rung expectimax:depth=4 \
            --rung "mcts:iterations=2000,$E,rollout=heuristic,cutoff=4"
        ;;
    frangieh-modern)
        ladder "$part" --game frangieh --variant modern --rung heuristic --rung expectimax:depth=2 \
            --rung "mcts:iterations=1000,cutoff=0,$E,net=shipped" --rung td:ply=0 --rung td:ply=1 \
            --rung "$G"
        ;;
    esac
done
