#!/bin/bash
# examples/slurm/merge.sh - the merge step, a job that depends on the
# shard array (submit.sh: sbatch --dependency=afterok:ARRAYJOB merge.sh):
# the shard directories KBENCH_DIR/shard-* read back as the one campaign
# they split, with all its rounds.  kbench report refuses a set with a
# shard missing or given twice, naming it, and warns when the shards ran
# on different CPUs, kernels or fio versions.  Writes KBENCH_DIR/report.txt,
# report.md and results.json.
#SBATCH --job-name=kbench-merge
#SBATCH --nodes=1
#SBATCH --ntasks=1
#SBATCH --output=kbench-merge-%j.out
set -eu
: "${KBENCH:=kbench}"
: "${KBENCH_DIR:?set KBENCH_DIR to the campaign directory (shared storage)}"

"$KBENCH" report -o "$KBENCH_DIR/report.txt" "$KBENCH_DIR"/shard-*
"$KBENCH" report -f markdown -o "$KBENCH_DIR/report.md" "$KBENCH_DIR"/shard-*
"$KBENCH" report -f json -o "$KBENCH_DIR/results.json" "$KBENCH_DIR"/shard-*
echo "merged $(ls -d "$KBENCH_DIR"/shard-* | wc -l) shards: $KBENCH_DIR/report.txt"
