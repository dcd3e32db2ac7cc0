#!/usr/bin/env bash
# One job of a solve submitted by solve.sh, with the arguments STEP DIR COWRIE SOLVE-ARGUMENT...:
# STEP `movement` solves the movement phase (with --resume when DIR holds a database);
# `unit:N:STAGE`, a task of a job array, solves unit K/N (K the task's index) of the half STAGE;
# `join:N:STAGE` joins its N units. A unit or join refuses to run when the database's next half
# is not STAGE (a job left over from an earlier submission).
#SBATCH --job-name=cowrie-solve
set -euo pipefail
step=$1 dir=$2 cowrie=$3
shift 3
echo "cowrie solve $step on $(hostname) in $dir"
if [[ $step == movement ]]; then
    # The movement job solves every layer and no placement half.
    args=()
    while (($#)); do
        case $1 in
        --down-to-placed) shift 2 ;;
        --down-to-placed=*) shift ;;
        *) args+=("$1") && shift ;;
        esac
    done
    resume=()
    if [[ -f $dir/manifest.json ]]; then
        resume=(--resume)
    fi
    exec "$cowrie" solve "${args[@]}" --movement-only --out "$dir" --quiet "${resume[@]}"
fi
IFS=: read -r what n stage <<<"$step"
next=$("$cowrie" solve "$@" --out "$dir" --stages)
next=${next%%$'\n'*}
if [[ $next != "$stage" ]]; then
    echo "solve-job.sh: $dir: the next stage is '${next:-none}', not $stage" >&2
    exit 2
fi
case $what in
unit)
    k=${SLURM_ARRAY_TASK_ID:?a unit runs as a task of a Slurm job array (sbatch --array)}
    exec "$cowrie" solve "$@" --unit "$k/$n" --out "$dir" --quiet
    ;;
join) exec "$cowrie" solve "$@" --join "$n" --out "$dir" --quiet ;;
*)
    echo "solve-job.sh: unknown step '$step'" >&2
    exit 2
    ;;
esac
