#!/bin/sh
# Instructions executed by one run of each pass on the 1k and the 10k random graph of
# BM_Pass (bench/tables/pass_work.cc under callgrind), and their ratio: how a pass's work
# scales, whatever the load and the caches do to its time. The graph grows 9.5x. "added":
# the instructions the run created at 1k / 10k (0 at 1k: the pass found nothing to do there).
#   scripts/pass_work.sh BUILD_DIR [--seed-1k=N] [PASS...]   (passes: all when none;
#   --seed-1k: draw the 1k graph with seed N instead of 7, for a pass that finds nothing in 7's)
set -eu
build=${1:?usage: scripts/pass_work.sh BUILD_DIR [--seed-1k=N] [PASS...]}
shift
command -v valgrind >/dev/null || { echo "pass_work.sh: valgrind is missing (apt-get install valgrind)" >&2; exit 1; }
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
valgrind --tool=callgrind --collect-atstart=no --callgrind-out-file="$dir/cg.%p" "$build/bench/hlsgym_pass_work" "$@" >"$dir/added" 2>/dev/null
/usr/bin/python3 - "$dir" <<'PY'
import glob, sys
work = {}
for f in glob.glob(sys.argv[1] + "/cg.*"):
    label = total = None
    for line in open(f, errors="replace"):
        if line.startswith("desc: Trigger: Client Request: "): label = line[len("desc: Trigger: Client Request: "):].strip()
        elif line.startswith("summary:"): total = int(line.split()[1])
    if label and "/" in label: work[label] = total
added = {}
for line in open(sys.argv[1] + "/added"):
    p, size, n = line.split()
    added[p + "/" + size] = int(n)
rows = sorted(((work[p + "/10000"] / work[p + "/1000"], p) for p in {k.rsplit("/", 1)[0] for k in work}), reverse=True)
print(f"{'pass':40s} {'1k':>12s} {'10k':>12s} {'ratio':>6s} {'added 1k / 10k':>15s}")
for r, p in rows:
    print(f"{p:40s} {work[p + '/1000']:12,d} {work[p + '/10000']:12,d} {r:6.1f} {added[p + '/1000']:>7d} / {added[p + '/10000']:<6d}")
print(f"{sum(r > 12 for r, _ in rows)} of {len(rows)} passes grow more than 12x")
PY
