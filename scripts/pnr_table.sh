#!/usr/bin/env bash
# The README's place-and-route table: every integer design (designs/*.yaml) through
# `hlsgym rtl --target ice40 --pnr` (Yosys synth_ice40 -dsp and nextpnr-ice40 on an
# iCE40 UltraPlus UP5K). Prints a Markdown table: SB_MAC16, EBR, LUT4 and FF estimated vs
# Yosys, nextpnr's logic cells (design and harness), achieved Fmax against the estimate's
# (hwmodel/clock.h) with the path the estimate finds critical, and the seconds.
# nextpnr's Fmax varies with its placement seed: with SEEDS="1 2 3" the design's netlist is
# placed again with each further seed, and the table gives the median Fmax (the ratio is
# against it) and the range over the seeds.
# Each Yosys and nextpnr run stops after TIMEOUT seconds (600; more on a loaded machine). A design
# that does not fit (the estimate's or nextpnr's word, naming the resource), runs out of time or
# fails is a row saying so: the table goes on.
# DESIGNS="a b" runs only those of designs/; SUBDIRS="loops indexing" adds designs/loops/*.{yaml,hlo}, ...
#   [SEEDS="1 2 3"] [KEEP=DIR] [TIMEOUT=S] [DESIGNS="..."] [SUBDIRS="..."] scripts/pnr_table.sh [BUILD_DIR]
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build="${1:-$root/build}"
hlsgym="$build/cli/hlsgym"
[[ -x "$hlsgym" ]] || { echo "error: $hlsgym not built (cmake --build $build)" >&2; exit 1; }
seeds="${SEEDS:-1}"
if [[ -n "${KEEP:-}" ]]; then work="$KEEP"; mkdir -p "$work"  # KEEP=DIR keeps each design's logs there
else work="$(mktemp -d)"; trap 'rm -rf "$work"' EXIT; fi
echo "| design | DSP est / Yosys | EBR est / Yosys | LUT4 est / Yosys | FF est / Yosys | nextpnr LCs | Fmax MHz est / nextpnr median (target 24) | nextpnr range, seeds $seeds | est / nextpnr | estimated critical path | seconds |"
echo "|---|---|---|---|---|---|---|---|---|---|---|"
files=("$root"/designs/*.yaml)
shopt -s nullglob
for sub in ${SUBDIRS:-}; do files+=("$root"/designs/"$sub"/*.yaml "$root"/designs/"$sub"/*.hlo); done
for f in "${files[@]}"; do
  name="$(basename "$f")"; name="${name%.*}"
  [[ -z "${DESIGNS:-}" || " $DESIGNS " == *" $name "* ]] || continue
  echo "  $name ..." >&2
  if ! "$hlsgym" rtl "$f" -o "$work/$name" --target ice40 --pnr --timeout "${TIMEOUT:-600}" --json > "$work/$name.json" 2> "$work/$name.err"; then
    # Every failure is a row: the table never stops at one design.
    err="$(grep -m1 'error' "$work/$name.err" || head -1 "$work/$name.err")"
    if grep -q "integer only\|is not supported\|lists no float unit" <<< "$err"; then continue; fi  # float designs
    if [[ "$err" == *"does not fit target"* ]]; then  # the estimate says so, naming the resources
      why="${err#*does not fit target ice40: }"; why="${why%; use fewer lanes*}"
      why="${why//: a cell holds one of each, paired only when the LUT drives nothing but that flip-flop/}"
      echo "| $name | does not fit the UP5K (estimate: $why) ||||||||||"
    elif [[ "$err" == *"rtl --pnr: design"*"does not fit"* ]]; then  # with the harness, or nextpnr could not place
      why="${err#*does not fit the up5k}"; why="${why#: }"; why="${why%; log: *}"; why="${why%; --lenient runs*}"
      echo "| $name | does not fit the UP5K (${why# }) ||||||||||"
    elif [[ "$err" == *"did not finish within"* ]]; then
      echo "| $name | not placed: ${err#*rtl --pnr: }" | sed 's/; log: .*//; s/$/ ||||||||||/'
    else
      err="${err#error: }"; echo "| $name | failed: ${err#"$f"*: } ||||||||||"
    fi
    continue
  fi
  fmaxes="" failed=""  # the design's netlist (design + harness) placed again with each further seed
  for seed in $seeds; do
    [[ "$seed" == 1 ]] && continue  # rtl --pnr's own run
    if (cd "$work/$name" && nice -n 5 timeout -k 5 "${TIMEOUT:-600}" nextpnr-ice40 --up5k --package sg48 --json pnr_netlist.json \
          --freq 24 --report "seed$seed.json" --seed "$seed" --timing-allow-fail -q > /dev/null 2>&1); then
      fmaxes+=" $work/$name/seed$seed.json"
    else failed+=" $seed"; fi
  done
  if [[ -n "$failed" ]]; then
    echo "| $name | failed: nextpnr-ice40 --seed${failed// /,} (failed or did not finish within ${TIMEOUT:-600} s) ||||||||||"
    continue
  fi
  /usr/bin/python3 - "$work/$name.json" $fmaxes <<'PY'
import json, statistics, sys
j = json.load(open(sys.argv[1]))
p = j["pnr"]
e, s, n = p["estimate"], p["synth"], p["nextpnr"]
runs = [n["fmax_mhz"]] + [min(f["achieved"] for f in json.load(open(r))["fmax"].values()) for r in sys.argv[2:]]
n["fmax_mhz"] = statistics.median(runs)
spread = f"{min(runs):.1f}–{max(runs):.1f}" if len(runs) > 1 else "—"
print(f"| {j['design']} | {e['dsp']:.0f} / {s['dsp']} | {e['bram']:.0f} / {s['bram']} | {e['lut']:.0f} / {s['lut']} | "
      f"{e['ff']:.0f} / {s['ff']} | {n['logic_cells']} | "
      + (f"{e['fmax_mhz']:.1f} / {n['fmax_mhz']:.1f} | {spread} | {e['fmax_mhz'] / n['fmax_mhz']:.2f} | {e['critical_path']} "
         if e.get('fmax_mhz') else f"— / {n['fmax_mhz']:.1f} | {spread} | — | not estimated ")
      + f"| {s['seconds'] + n['seconds']:.0f} |")
PY
done
