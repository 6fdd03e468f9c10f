#!/usr/bin/env bash
# Generates the client's requests and wire types from openapi.yaml with swift-openapi-generator into
# Client/Sources/StickerCatalogAPI (committed: building the generator and its plugin on every app build costs minutes on
# two cores). With --check, generates into a temporary folder instead and fails when the committed files differ or the
# generator warns (it silently drops what it cannot type).
# Usage: scripts/generate-client.sh [--check]
set -euo pipefail
cd "$(dirname "$0")/.."
out=Client/Sources/StickerCatalogAPI
target=$out
if [[ "${1:-}" == "--check" ]]; then target=$(mktemp -d /tmp/stickercatalog-api.XXXXXX); trap 'rm -rf "$target"' EXIT; fi
swift build --package-path Client/Generator --scratch-path .build-generator -c release --product swift-openapi-generator >/dev/null
log=$(mktemp)
.build-generator/release/swift-openapi-generator generate --config Client/openapi-generator-config.yaml \
  --output-directory "$target" openapi.yaml >"$log" 2>&1 || { cat "$log"; exit 1; }
if grep -i "warning" "$log"; then echo "swift-openapi-generator warned: fix openapi.yaml" >&2; exit 1; fi
if [[ "$target" != "$out" ]]; then
  diff -r "$out" "$target" || { echo "Client/Sources/StickerCatalogAPI is stale: run scripts/generate-client.sh" >&2; exit 1; }
  echo "generated client: up to date with openapi.yaml"
fi
