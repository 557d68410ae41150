#!/bin/bash
# examples/slurm/submit.sh - split a kbench campaign over N nodes of a
# Slurm cluster and merge it when every shard has finished:
#
#   examples/slurm/submit.sh N kernels.conf /shared/results/camp
#
# submits shard.sbatch as an array of N tasks (one node each) and
# merge.sh as a job that starts once all of them succeeded
# (--dependency=afterok).  Prints the two job ids: ARRAYJOB MERGEJOB.
# KBENCH (the kbench binary, default: kbench in PATH), SLURM_CONF and
# other sbatch settings (SBATCH_PARTITION, SBATCH_ACCOUNT...) come from
# the environment.
set -eu
if [ $# -ne 3 ]; then
	echo "usage: $0 N KERNELS.CONF CAMPAIGN-DIR" >&2
	exit 2
fi
here=$(cd "$(dirname "$0")" && pwd)
n=$1
KBENCH_CONF=$(readlink -f "$2")
KBENCH_DIR=$(readlink -m "$3")
export KBENCH_CONF KBENCH_DIR
[ -n "${KBENCH:-}" ] && export KBENCH
mkdir -p "$KBENCH_DIR"

# --parsable prints "JOBID" or "JOBID;CLUSTER"
array=$(sbatch --parsable --export=ALL --array="1-$n" \
	--output="$KBENCH_DIR/slurm-shard-%A_%a.out" "$here/shard.sbatch")
array=${array%%;*}
merge=$(sbatch --parsable --export=ALL --dependency="afterok:$array" \
	--kill-on-invalid-dep=yes \
	--output="$KBENCH_DIR/slurm-merge-%j.out" "$here/merge.sh")
merge=${merge%%;*}
echo "$array $merge"
