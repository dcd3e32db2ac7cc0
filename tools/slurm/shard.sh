#!/usr/bin/env bash
# One shard of a cowrie run, as task K of a Slurm job array of N tasks: plays `--shard K/N` into
# OUT.shards/K, continuing with --resume what an earlier task left there (a task that was
# cancelled, preempted or timed out is simply submitted again). Submitted by submit.sh with the
# arguments: N OUT COWRIE COMMAND [ARGUMENT...].
#SBATCH --job-name=cowrie-shard
set -euo pipefail
n=$1 out=$2 cowrie=$3
shift 3
k=${SLURM_ARRAY_TASK_ID:?shard.sh runs as a task of a Slurm job array (sbatch --array)}
dir="$out.shards/$k"
resume=()
if [[ -f $dir/manifest.json ]]; then
    resume=(--resume)
fi
echo "cowrie shard $k/$n on $(hostname) into $dir ${resume[*]}"
exec "$cowrie" "$@" --shard "$k/$n" --out "$dir" --quiet "${resume[@]}"
