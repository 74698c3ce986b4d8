#!/bin/sh
# Instructions executed by one run of each pass on the 1k and the 10k random graph of
# BM_Pass (bench/tables/pass_work.cc under callgrind), and their ratio: how a pass's work
# scales, whatever the load and the caches do to its time. The graph grows 9.5x.
#   scripts/pass_work.sh BUILD_DIR
set -eu
build=${1:?usage: scripts/pass_work.sh BUILD_DIR}
command -v valgrind >/dev/null || { echo "pass_work.sh: valgrind is missing (apt-get install valgrind)" >&2; exit 1; }
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
valgrind --tool=callgrind --collect-atstart=no --callgrind-out-file="$dir/cg.%p" "$build/bench/hlsgym_pass_work" 2>/dev/null
/usr/bin/python3 - "$dir" <<'PY'
import glob, sys
work = {}
for f in glob.glob(sys.argv[1] + "/cg.*"):
    label = total = None
    for line in open(f, errors="replace"):
        if line.startswith("desc: Trigger: Client Request: "): label = line[len("desc: Trigger: Client Request: "):].strip()
        elif line.startswith("summary:"): total = int(line.split()[1])
    if label and "/" in label: work[label] = total
rows = sorted(((work[p + "/10000"] / work[p + "/1000"], p) for p in {k.rsplit("/", 1)[0] for k in work}), reverse=True)
print(f"{'pass':40s} {'1k':>12s} {'10k':>12s} {'ratio':>6s}")
for r, p in rows: print(f"{p:40s} {work[p + '/1000']:12,d} {work[p + '/10000']:12,d} {r:6.1f}")
print(f"{sum(r > 12 for r, _ in rows)} of {len(rows)} passes grow more than 12x")
PY
