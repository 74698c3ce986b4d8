#!/usr/bin/env bash
# Installs every package hlsgym needs on Debian 12 (run as root). Idempotent and quick
# when everything is present: it only calls apt when a package is missing.
set -euo pipefail
packages=(
  cmake g++ make ccache pkg-config
  libeigen3-dev libyaml-cpp-dev libfmt-dev libcli11-dev nlohmann-json3-dev
  libgtest-dev libgmock-dev libbenchmark-dev
  # scripts/pass_work.sh: each pass's work counted under callgrind
  valgrind
  verilator yosys
  # hlsgym rtl --pnr: nextpnr-ice40 (place and route), fpga-icestorm (icepack, icetime: the iCE40 bitstream and timing tools)
  nextpnr-ice40 fpga-icestorm
  libopenmpi-dev openmpi-bin
  # the Python module (python/), its tests and the PyTorch example (examples/python/)
  python3 python3-dev pybind11-dev python3-numpy python3-pytest python3-setuptools python3-pip python3-venv
  python3-torch python3-matplotlib
)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "installing: ${missing[*]}"
  apt-get update
  DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "${missing[@]}"
fi
