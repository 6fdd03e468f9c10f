#!/usr/bin/env bash
# Formats the Swift sources with swift-format and the checked-in .swift-format (lines of at most 120 characters);
# with --lint, changes nothing and fails on any file that formatting would change or that breaks a lint rule.
# Client/Sources/StickerCatalogAPI is generated from openapi.yaml (scripts/generate-client.sh) and left as generated.
set -euo pipefail
cd "$(dirname "$0")/.."
paths=(Sources Tests Plugins Benchmarks Fuzz Client/Package.swift Client/Sources/StickerCatalogClient
  Client/Sources/StickerCatalogExport Client/Sources/sticker-sync Client/Tests Package.swift)
if [[ "${1:-}" == "--lint" ]]; then
  swift format lint --strict --recursive --parallel --configuration .swift-format "${paths[@]}"
  echo "swift-format: ${#paths[@]} paths formatted as .swift-format says"
else
  swift format format --in-place --recursive --parallel --configuration .swift-format "${paths[@]}"
fi
