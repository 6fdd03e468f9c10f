#!/usr/bin/env bash
# Validates deploy/: the Kubernetes manifests against the Kubernetes schemas (kubernetes-validate --strict: unknown
# fields fail too), then what a schema cannot see: the shutdown arithmetic, probe paths that exist, environment
# variables that stickerd reads, and alert rules that parse. (ObservabilityTests checks the alerts' metric names.)
set -euo pipefail
cd "$(dirname "$0")/.."
command -v kubernetes-validate >/dev/null || { echo "kubernetes-validate is not installed: pip install kubernetes-validate" >&2; exit 1; }
kubernetes-validate --strict --quiet deploy/kubernetes/*.yaml
python3 scripts/deploy/check.py
