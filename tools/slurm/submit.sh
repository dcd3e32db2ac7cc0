#!/usr/bin/env bash
# Submits a cowrie command to Slurm as N shards, a job array of N tasks (shard.sh), and one merge
# job (merge.sh) that starts when every task has ended well; prints the two job ids.
#
#   tools/slurm/submit.sh N OUT COMMAND [ARGUMENT...]
#   COWRIE=target/release/cowrie tools/slurm/submit.sh 8 runs/bc \
#       match --game baghchal --p1 heuristic --p2 random --games 100000 --seed 7
#
# OUT is the merged run's directory, what `--out` would be for the unsharded command; shard K
# plays into OUT.shards/K and logs to OUT.shards/K.log, the merge to OUT.shards/merge.log. The
# command takes neither --out, --shard, --resume nor --quiet (the scripts give them). Each task
# asks Slurm for as many CPUs as the command's --threads (1 without it).
# Environment: COWRIE, the cowrie binary (default: `cowrie` on PATH); COWRIE_TASKS, the array
# tasks to submit (default 1-N; e.g. COWRIE_TASKS=3,5 submits shards 3 and 5 again, which
# continue where they stopped); sbatch's own input variables (SBATCH_PARTITION,
# SBATCH_TIMELIMIT, SBATCH_ACCOUNT, ...) apply to both jobs.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)

die() {
    echo "submit.sh: $*" >&2
    exit 2
}

(($# >= 3)) || die "usage: submit.sh N OUT COMMAND [ARGUMENT...]"
n=$1 out=$2
shift 2
[[ $n =~ ^[1-9][0-9]*$ ]] || die "N must be a count of shards (1 or more), not '$n'"
threads=
args=("$@")
for ((i = 0; i < ${#args[@]}; i++)); do
    case ${args[i]} in
    --out | --out=* | --shard | --shard=* | --resume | --quiet)
        die "leave ${args[i]%%=*} out of the command: the job scripts give it" ;;
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

mkdir -p "$out.shards"
array=$(sbatch --parsable --array="${COWRIE_TASKS:-1-$n}" --cpus-per-task="$threads" \
    --output="$out.shards/%a.log" "$here/shard.sh" "$n" "$out" "$cowrie" "$@")
array=${array%%;*}
merge=$(sbatch --parsable --dependency="afterok:$array" --kill-on-invalid-dep=yes \
    --output="$out.shards/merge.log" "$here/merge.sh" "$n" "$out" "$cowrie")
merge=${merge%%;*}
echo "$array $merge"
echo "submit.sh: shards in job array $array, merge into $out in job $merge" >&2
