#!/usr/bin/env bash
# Validates openapi.yaml as OpenAPI 3.1 when openapi-spec-validator is installed (pip install openapi-spec-validator).
set -euo pipefail
cd "$(dirname "$0")/.."
if python3 -c 'import openapi_spec_validator' 2>/dev/null; then
  python3 -m openapi_spec_validator openapi.yaml
else
  echo "openapi-spec-validator is not installed: openapi.yaml was not validated (the route coverage test still ran)."
fi
