#!/usr/bin/env bash
# Installs what the build, the tests and the service need: Debian packages (apt-get) and Python tools (pip) for
# the OpenAPI checks; with --bench, what the benchmarks need; with --browser, what the console's browser tests need.
# As root it installs; otherwise it prints the exact commands to run and stops.
set -euo pipefail

packages=(pkg-config libpng-dev libgif-dev libturbojpeg0-dev libwebp-dev webp zlib1g-dev libbrotli-dev liblcms2-dev libcurl4-openssl-dev postgresql util-linux curl python3 python3-pip libvips-tools apngdis nodejs node-typescript imagemagick)
# imagemagick: the reference GIF decoder (its coalesced frames) the GIF conformance tests compare against.
# nodejs and node-typescript: the web module's unit tests (node --test) and type checks (tsc), scripts/check-web.sh.
# brotli: so that schemathesis (through urllib3) can read the brotli answers it asks for with `Accept-Encoding: br`.
# kubernetes-validate: scripts/check-deploy.sh validates deploy/kubernetes against the Kubernetes schemas.
# pillow: the tests' independent reader of the WebP, APNG and PNG files the service writes.
python=(schemathesis openapi-spec-validator brotli kubernetes-validate pillow)
if [[ "${1:-}" == "--browser" ]]; then
  # make test-browser (part of make test) drives the admin console in a real, headless Chromium.
  packages=(chromium chromium-driver curl)
  python=(selenium)
fi
if [[ "${1:-}" == "--bench" ]]; then
  # postgresql-client: psql seeds the purchases and search benchmarks, pgbench runs PostgreSQL search; cryptography mints its App Store notifications; time (GNU)
  # measures sticker-sync's CPU and peak memory.
  packages=(wrk nginx-light curl pngcheck libvips-tools hyperfine apngdis optipng libvips42 postgresql-client time)
  python=(pyvips cryptography)
fi

missing=()
for package in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$package")
  fi
done
# nginx-light is one of several nginx packages; any nginx binary will do. Any python3 with pip will do too.
if [[ " ${missing[*]-} " == *" nginx-light "* ]] && command -v nginx >/dev/null; then missing=("${missing[@]/nginx-light}"); fi
if command -v python3 >/dev/null && python3 -m pip --version >/dev/null 2>&1; then
  missing=("${missing[@]/python3-pip}")
  missing=("${missing[@]/python3}")
fi
missing=($(printf '%s\n' "${missing[@]-}" | grep -v '^$' || true))

missing_python=()
for module in "${python[@]-}"; do
  [[ -z "$module" ]] && continue
  import=${module//-/_}
  [[ "$module" == "pillow" ]] && import=PIL
  [[ "$module" == "schemathesis" ]] && { command -v st >/dev/null || missing_python+=("$module"); continue; }
  [[ "$module" == "kubernetes-validate" ]] && { command -v kubernetes-validate >/dev/null || missing_python+=("$module"); continue; }
  python3 -c "import $import" 2>/dev/null || missing_python+=("$module")
done

if ((${#missing[@]} + ${#missing_python[@]} > 0)); then
  if [[ $(id -u) -eq 0 ]]; then
    if ((${#missing[@]} > 0)); then
      echo "Installing: ${missing[*]}"
      export DEBIAN_FRONTEND=noninteractive
      apt-get update -qq
      apt-get install -y -qq --no-install-recommends "${missing[@]}"
    fi
    if ((${#missing_python[@]} > 0)); then
      echo "Installing from PyPI: ${missing_python[*]}"
      python3 -m pip install -q --root-user-action=ignore "${missing_python[@]}" 2>/dev/null \
        || python3 -m pip install -q --break-system-packages "${missing_python[@]}"
    fi
  else
    echo "Missing: ${missing[*]-} ${missing_python[*]-}"
    echo "Install them with:"
    ((${#missing[@]} > 0)) && echo "  sudo apt-get update && sudo apt-get install -y ${missing[*]}"
    ((${#missing_python[@]} > 0)) && echo "  python3 -m pip install --user ${missing_python[*]}"
    exit 1
  fi
fi

if ! command -v swift >/dev/null; then
  echo "The Swift 6 toolchain is not on PATH; install it from swift.org (it is not a Debian package) and retry."
  exit 1
fi
