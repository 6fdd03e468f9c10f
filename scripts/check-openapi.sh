#!/usr/bin/env bash
# Validates openapi.yaml as OpenAPI 3.1. Fails when the validator cannot run: `scripts/install-deps.sh` installs it.
set -euo pipefail
cd "$(dirname "$0")/.."
if ! python3 -c 'import openapi_spec_validator' 2>/dev/null; then
  echo "openapi-spec-validator is not installed, so openapi.yaml cannot be validated: pip install openapi-spec-validator" >&2
  exit 1
fi
python3 -m openapi_spec_validator openapi.yaml
