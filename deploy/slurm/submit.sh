#!/bin/bash
# Submits the shards as an array job and the merge to run after all of
# them succeeded. Usage:
#
#   KAISEN_ARGS='tournament --players admiral,stateplayer2,random -n 2000 --seed 7' \
#     deploy/slurm/submit.sh 16
set -euo pipefail
dir=$(cd "$(dirname "$0")" && pwd)
n=${1:-8}
export KAISEN_ARGS=${KAISEN_ARGS:-match --p1 admiral --p2 stateplayer2 -n 100000 --seed 42}
export RESULTS=${RESULTS:-$PWD/kaisen-results}
jid=$(sbatch --parsable --export=ALL --array="1-$n" "$dir/shard.sbatch")
sbatch --parsable --export=ALL --dependency="afterok:$jid" "$dir/merge.sbatch"
echo "shards: job $jid; results in $RESULTS"
