#!/usr/bin/env bash
# Installs the Debian packages the build, the tests and the service need (or, for --bench, the benchmark).
# As root it runs apt-get; otherwise it prints the exact command to run and stops.
set -euo pipefail

packages=(pkg-config libpng-dev zlib1g-dev postgresql util-linux curl)
if [[ "${1:-}" == "--bench" ]]; then
  packages=(wrk nginx-light curl pngcheck libvips-tools hyperfine)
fi

missing=()
for package in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$package")
  fi
done
# nginx-light is one of several nginx packages; any nginx binary will do.
if [[ " ${missing[*]-} " == *" nginx-light "* ]] && command -v nginx >/dev/null; then
  missing=("${missing[@]/nginx-light}")
fi
missing=($(printf '%s\n' "${missing[@]-}" | grep -v '^$' || true))

if ((${#missing[@]} > 0)); then
  if [[ $(id -u) -eq 0 ]]; then
    echo "Installing: ${missing[*]}"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    apt-get install -y -qq --no-install-recommends "${missing[@]}"
  else
    echo "Missing Debian packages: ${missing[*]}"
    echo "Install them with:"
    echo "  sudo apt-get update && sudo apt-get install -y ${missing[*]}"
    exit 1
  fi
fi

if ! command -v swift >/dev/null; then
  echo "The Swift 6 toolchain is not on PATH; install it from swift.org (it is not a Debian package) and retry."
  exit 1
fi
