#!/usr/bin/env bash
# Submits a Baghchal solve (`cowrie solve`) to Slurm in stages: the movement phase as one job
# (a layer's retrograde analysis does not split), then for each placement half still to solve a
# job array of N units (`--unit K/N`, solve-job.sh) and a join job (`--join N`) that starts when
# every unit has ended well; each stage starts when the join before it has ended well
# (--dependency=afterok). Prints the job ids on one line, in the order they run: the movement
# job (when the movement phase is not solved yet), then each half's array and join.
#
#   tools/slurm/solve.sh N DIR [SOLVE-ARGUMENT...]
#   COWRIE=target/release/cowrie tools/slurm/solve.sh 16 db/parlett \
#       --game baghchal --variant parlett-1976 --threads 4
#
# DIR is the database's directory, the `--out` of a one-process solve, which the joins leave
# holding the same files. The arguments are `cowrie solve`'s without --out, --unit, --join,
# --stages, --resume, --quiet and --movement-only, which the scripts give; --down-to-placed P
# stops at the halves with P goats placed. Logs go to DIR.jobs/ (movement.log,
# placement-PP-SIDE.K.log, placement-PP-SIDE.join.log). Submitted again with the same arguments
# after a failure, it submits what is still to solve: a unit whose manifest and file agree is
# not solved again, one interrupted is solved from the start.
# Environment: COWRIE, the cowrie binary (default: `cowrie` on PATH); sbatch's own input
# variables (SBATCH_PARTITION, SBATCH_TIMELIMIT, SBATCH_ACCOUNT, ...) apply to every job.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)

die() {
    echo "solve.sh: $*" >&2
    exit 2
}

(($# >= 2)) || die "usage: solve.sh N DIR [SOLVE-ARGUMENT...]"
n=$1 dir=$2
shift 2
[[ $n =~ ^[1-9][0-9]*$ ]] || die "N must be a count of units (1 or more), not '$n'"
threads=
args=("$@")
for ((i = 0; i < ${#args[@]}; i++)); do
    case ${args[i]} in
    --out | --out=* | --unit | --unit=* | --join | --join=* | --stages | --resume | --quiet | --movement-only)
        die "leave ${args[i]%%=*} out of the arguments: the job scripts give it" ;;
    --threads) threads=${args[i + 1]:-} ;;
    --threads=*) threads=${args[i]#--threads=} ;;
    esac
done
if [[ -z $threads ]]; then
    threads=1
    set -- "$@" --threads 1
fi
[[ $threads =~ ^[1-9][0-9]*$ ]] || die "--threads must be a count of threads, not '$threads'"
cowrie=$(command -v "${COWRIE:-cowrie}") || die "no cowrie binary '${COWRIE:-cowrie}' (set COWRIE)"
cowrie=$(realpath "$cowrie")

# The stages still to solve, as cowrie sees the directory now (it checks the arguments too).
stages=$("$cowrie" solve "$@" --out "$dir" --stages) || exit 2
[[ -n $stages ]] || die "$dir: nothing left to solve"
logs="$dir.jobs"
mkdir -p "$logs"
ids=()
after=()
submit() {
    local id
    id=$(sbatch --parsable --cpus-per-task="$threads" "${after[@]}" "$@")
    id=${id%%;*}
    ids+=("$id")
    after=(--dependency="afterok:$id" --kill-on-invalid-dep=yes)
}
for stage in $stages; do
    if [[ $stage == movement ]]; then
        submit --job-name=cowrie-solve-movement --output="$logs/movement.log" \
            "$here/solve-job.sh" movement "$dir" "$cowrie" "$@"
    else
        submit --job-name="cowrie-solve-$stage" --array="1-$n" --output="$logs/$stage.%a.log" \
            "$here/solve-job.sh" "unit:$n:$stage" "$dir" "$cowrie" "$@"
        submit --job-name="cowrie-join-$stage" --output="$logs/$stage.join.log" \
            "$here/solve-job.sh" "join:$n:$stage" "$dir" "$cowrie" "$@"
    fi
done
echo "${ids[*]}"
echo "solve.sh: $(wc -w <<<"$stages") stages in ${#ids[@]} jobs, into $dir (logs in $logs)" >&2
