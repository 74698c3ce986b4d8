#!/usr/bin/env bash
# Installs every package hlsgym needs on Debian 12 (run as root). Idempotent and quick
# when everything is present: it only calls apt when a package is missing.
set -euo pipefail
packages=(
  cmake g++ make ccache pkg-config
  libeigen3-dev libyaml-cpp-dev libfmt-dev libcli11-dev nlohmann-json3-dev
  libgtest-dev libgmock-dev libbenchmark-dev
  verilator yosys
  libopenmpi-dev openmpi-bin
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
