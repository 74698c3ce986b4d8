#!/usr/bin/env bash
# Training speed on MPI ranks (issue 20): steps/s of `hlsgym train` on the real train split
# with one process and with 1..N ranks under mpirun, and each update's time split into
# rollout (the slowest rank's), communication and learning, as rank 0 measures it.
# Not a test: numbers depend on the machine. Usage:
#   scripts/mpi_speed.sh [BUILD_DIR] [MAX_RANKS] [STEPS]
# Environment: HLSGYM_HLO_DATA_DIR (default /work/shared/data/hlo or ../shared/data/hlo),
# ENVS (default 8), EPISODE_LEN (default 30).
set -euo pipefail
build=${1:-build}
max_ranks=${2:-2}
steps=${3:-4096}
envs=${ENVS:-8}
episode_len=${EPISODE_LEN:-30}
here=$(cd "$(dirname "$0")/.." && pwd)
data=${HLSGYM_HLO_DATA_DIR:-}
[[ -z $data && -d $here/../shared/data/hlo ]] && data=$here/../shared/data/hlo
[[ -z $data ]] && data=/work/shared/data/hlo
hlsgym=$build/cli/hlsgym
command -v mpirun > /dev/null || { echo "mpirun not found: install openmpi-bin (scripts/install-deps.sh)" >&2; exit 1; }
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_btl_vader_single_copy_mechanism=${OMPI_MCA_btl_vader_single_copy_mechanism:-none}  # containers forbid CMA
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
args=(train --graphs "$data/train" --steps "$steps" --envs "$envs" --episode-len "$episode_len" --checkpoint-steps 100000000)

# The rate train prints on its progress line (steps after loading the graphs / seconds).
rate() { tr '\r' '\n' < "$1" | grep -o '[0-9]* steps/s' | tail -1; }

echo "hlsgym train on $data/train: $steps steps, --envs $envs, --episode-len $episode_len ($(nproc) cores)"
"$hlsgym" "${args[@]}" -o "$out/p0.policy" 2> "$out/err0" > /dev/null
echo "1 process, 1 thread:            $(rate "$out/err0")"
"$hlsgym" "${args[@]}" --workers 2 -o "$out/pt.policy" 2> "$out/errt" > /dev/null
echo "1 process, 2 threads:           $(rate "$out/errt")"
for ((r = 1; r <= max_ranks; ++r)); do
  mpirun --oversubscribe -np "$r" "$hlsgym" "${args[@]}" -o "$out/p$r.policy" 2> "$out/err$r" > /dev/null
  same=$(cmp -s "$out/p0.policy" "$out/p$r.policy" && echo "same policy file" || echo "POLICY DIFFERS")
  echo "mpirun -np $r, 1 thread each:   $(rate "$out/err$r"); $(tr '\r' '\n' < "$out/err$r" | grep -o 'per update.*' | tail -1); $same"
  if ((r > 1)); then
    mpirun --oversubscribe -np "$r" "$hlsgym" "${args[@]}" --fixed-blocks -o "$out/f$r.policy" 2> "$out/errf$r" > /dev/null
    same=$(cmp -s "$out/p0.policy" "$out/f$r.policy" && echo "same policy file" || echo "POLICY DIFFERS")
    echo "  ... --fixed-blocks:           $(rate "$out/errf$r"); $(tr '\r' '\n' < "$out/errf$r" | grep -o 'per update.*' | tail -1); $same"
  fi
done
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg) (other processes share these cores)"
