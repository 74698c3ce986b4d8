#!/usr/bin/env bash
# The README's RTL table: every integer design (designs/*.yaml), the loop designs
# (designs/loops/, HLO and YAML), the run-time indexing designs (designs/indexing/) and the large kernels (designs/scale/*.yaml) through `hlsgym rtl --sim`, with Yosys synth_xilinx on the
# designs that synthesize in seconds (--synth-all adds the large kernels: ~10 minutes
# each). Prints a Markdown table: Verilog lines, Verilator build time, cycles estimated
# and measured, DSP / BRAM18K / LUT / FF estimated vs Yosys.
#   scripts/rtl_table.sh [--synth-all] [BUILD_DIR [DESIGN...]]   (DESIGN...: only these rows)
set -euo pipefail
synth_all=0
if [[ "${1:-}" == "--synth-all" ]]; then synth_all=1; shift; fi
root="$(cd "$(dirname "$0")/.." && pwd)"
build="${1:-$root/build}"
shift || true
designs=("$@")
if [[ ${#designs[@]} -eq 0 ]]; then
  designs=("$root"/designs/*.yaml "$root"/designs/loops/*.yaml "$root"/designs/loops/*.hlo "$root"/designs/indexing/*.hlo "$root"/designs/scale/*.yaml)
fi
hlsgym="$build/cli/hlsgym"
[[ -x "$hlsgym" ]] || { echo "error: $hlsgym not built (cmake --build $build)" >&2; exit 1; }
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
echo "| design | lines | Verilator build s | cycles est / measured | DSP est / Yosys | BRAM18K est / Yosys | LUT est / Yosys | FF est / Yosys | of which control LUT / FF |"
echo "|---|---|---|---|---|---|---|---|---|"
for f in "${designs[@]}"; do
  name="$(basename "$f")"
  name="${name%.*}"
  synth=(--synth)
  if [[ "$f" == */scale/* && $synth_all == 0 ]]; then synth=(); fi
  echo "  $name ..." >&2
  if ! "$hlsgym" rtl "$f" -o "$work/$name" --sim --vectors 4 "${synth[@]}" --json > "$work/$name.json" 2> "$work/$name.err"; then
    if grep -q "integer only\|is not supported" "$work/$name.err"; then continue; fi  # float designs: --fixed
    echo "error: $name: $(head -1 "$work/$name.err")" >&2; exit 1
  fi
  /usr/bin/python3 - "$work/$name.json" <<'PY'
import json, sys
j = json.load(open(sys.argv[1]))
s = j.get("synth", {})
est, x = s.get("estimate", {}), s.get("xilinx")
def pair(k, xk):
    e = est.get(k)
    if e is None: return "—"
    return f"{e:.0f} / {x[xk]}" if x else f"{e:.0f} / —"
print(f"| {j['design']} | {j['lines']} | {j['build_seconds']:.2f} | {j['estimated_cycles']} / {j['measured_cycles']}"
      f"{'' if j['mismatches'] == 0 else ' (' + str(j['mismatches']) + ' mismatches)'} | "
      f"{pair('dsp', 'dsp')} | {pair('bram18k', 'bram18k')} | {pair('lut', 'lut')} | {pair('ff', 'ff')} | "
      f"{est.get('control_lut', 0):.0f} / {est.get('control_ff', 0):.0f}"
      f"{' (+' + str(est['control_unpriced_dividers']) + ' index dividers unpriced)' if est.get('control_unpriced_dividers') else ''} |")
PY
done
