#!/usr/bin/env bash
# Joins the N shards of a cowrie run, OUT.shards/1 ... OUT.shards/N, into OUT with `cowrie
# merge`, which checks every shard file against its manifest first. Submitted by submit.sh, to
# start once every task of the array has ended well, with the arguments: N OUT COWRIE.
#SBATCH --job-name=cowrie-merge
set -euo pipefail
n=$1 out=$2 cowrie=$3
shards=()
for ((k = 1; k <= n; k++)); do
    shards+=("$out.shards/$k")
done
exec "$cowrie" merge --out "$out" "${shards[@]}"
