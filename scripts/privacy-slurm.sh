#!/usr/bin/env bash
# One shard of a `dpdtol privacy` check as a task of a Slurm job array.
#
#   sbatch --array=1-16 scripts/privacy-slurm.sh --algorithm wu-wang --noise gumbel \
#       --actions 2 --horizon 1023 --alphabet 0,1 --epsilon 1 --force
#
# Task I of an array of N tasks (1-based, as above) runs the same flags with
# `--shard I/N --json` and writes "$PRIVACY_OUT/shard-I.json" (default
# directory: privacy-shards). When every task has finished, merge exactly:
#
#   sbatch --dependency=afterok:<array job id> --wrap \
#       'dpdtol privacy --merge "$(ls privacy-shards/shard-*.json | paste -sd, -)"'
#
# `dpdtol` is taken from $DPDTOL (default: the one on PATH). Outside Slurm,
# set SLURM_ARRAY_TASK_ID and SLURM_ARRAY_TASK_COUNT yourself (CI does).
#SBATCH --job-name=dpdtol-privacy
#SBATCH --output=privacy-%A_%a.log
set -euo pipefail

: "${SLURM_ARRAY_TASK_ID:?run me as a job array: sbatch --array=1-N $0 FLAGS...}"
# Slurm ≥ 18 sets the count; older versions give the largest index.
count="${SLURM_ARRAY_TASK_COUNT:-${SLURM_ARRAY_TASK_MAX:?no array size}}"
out="${PRIVACY_OUT:-privacy-shards}"
mkdir -p "$out"
# Exit status 1 is a shard whose part is violated: a result, kept like any
# other (the merge decides the whole run); 2 is bad input.
status=0
"${DPDTOL:-dpdtol}" privacy "$@" --shard "$SLURM_ARRAY_TASK_ID/$count" --json \
    > "$out/shard-$SLURM_ARRAY_TASK_ID.json.partial" || status=$?
[ "$status" -le 1 ] || exit "$status"
# Renamed only when complete, so a merge never reads a half-written shard.
mv "$out/shard-$SLURM_ARRAY_TASK_ID.json.partial" "$out/shard-$SLURM_ARRAY_TASK_ID.json"
