#!/usr/bin/env bash
# Measures the IEEE-754 units of rtl/float_units.h with Yosys synth_xilinx -noiopad, one
# unit alone at a time (build/bench/hlsgym_float_units --synth), for the `float_units`
# table of designs/targets/fpga.yaml. Prints a Markdown table (unit, format, latency,
# LUT, FF, DSP48E1, CARRY4) and then the table's YAML rows. About 15 minutes when they were
# 96 IEEE units; the 18 transcendentals (fexp, flog, ftanh, flogistic, frsqrt, ferf) took 11
# more here. Name modules to measure a few: `... build hg_fexp_f32 hg_ferf_bf16`.
#   scripts/calibrate_float_units.sh [BUILD_DIR [MODULE...]]
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build="${1:-$root/build}"
shift || true
tool="$build/bench/hlsgym_float_units"
[[ -x "$tool" ]] || { echo "error: $tool not built (cmake --build $build --target hlsgym_float_units)" >&2; exit 1; }
command -v yosys > /dev/null || { echo "error: yosys not found (Debian package yosys)" >&2; exit 1; }
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
"$tool" "$work" --synth "$@" > "$work/rows.txt"
echo "| unit | format | latency | LUT | FF | DSP | CARRY4 |"
echo "|---|---|---|---|---|---|---|"
awk '{printf "| %s | %s | %s | %s | %s | %s | %s |\n", $2, $3, $4, $5, $6, $7, $8}' "$work/rows.txt"
echo
echo "float_units:"
# one row per unit, its formats in the order the tool printed them
awk '{ if (!($2 in seen)) { seen[$2] = 1; order[n++] = $2 }
       row[$2] = row[$2] (row[$2] == "" ? "" : ", ") sprintf("%s: {latency: %s, lut: %s, ff: %s, dsp: %s}", $3, $4, $5, $6, $7) }
     END { for (i = 0; i < n; i++) printf "  %s: {%s}\n", order[i], row[order[i]] }' "$work/rows.txt"
