#!/usr/bin/env bash
# Runs schemathesis against openapi.yaml and a live stickerd (demo catalog, embedded PostgreSQL in a temporary
# folder, an admin token), with every check (schemathesis.toml, read from the project root, says which statuses a
# schema-valid request may get; scripts/lib/conformance_hooks.py gives it what no schema can say a valid request holds).
# Fails on any failure or error.
# Usage: scripts/conformance.sh [path/to/stickerd] [SECONDS]   (defaults: the debug build, 120 s)
# Environment: CONFORMANCE_LOG, a file to keep schemathesis' whole report in; CONFORMANCE_WORKERS (1).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib.sh
stickerd=${1:-.build/debug/stickerd}
seconds=${2:-${CONFORMANCE_SECONDS:-120}}
command -v st >/dev/null || { echo "schemathesis is not installed: pip install schemathesis" >&2; exit 1; }
work=$(mktemp -d /tmp/stickerd-conformance.XXXXXX)
chmod 755 "$work"
token="conformance-$(head -c 16 /dev/urandom | od -An -tx1 | tr -d ' \n')"
export STICKER_USER_JWT_SECRET="conformance-user-secret-$(head -c 16 /dev/urandom | od -An -tx1 | tr -d ' \n')"
export STICKER_WEBHOOK_SECRETS=conformance-webhook-secret-0123456789abcdef STICKER_REVENUECAT_AUTH="Bearer conformance-revenuecat"
user=$("$stickerd" token user conformance-user --lifetime 7200)
trap 'stop_stickerds; rm -rf "$work"' EXIT
# /v1/events ends after a second instead of an hour; schemathesis' wrong-token checks would otherwise have its own
# address refused (429) for most of the run.
STICKER_ADMIN_TOKEN=$token LOG_LEVEL=warning start_stickerd "$stickerd" "$work/stickerd.log" --demo --data-dir "$work/db" \
  --event-stream-lifetime 1 --admin-auth-failures-per-minute 1000000
port=$STICKERD_PORT
# A stored webhook event for the webhook-event routes to find (a delivery the service keeps, though it grants nothing),
# and the hooks that give schemathesis what no schema can say a valid request holds (scripts/lib/conformance_hooks.py).
curl -s -o /dev/null -X POST -H "Authorization: $STICKER_REVENUECAT_AUTH" -H 'Content-Type: application/json' \
  -d '{"api_version":"1.0","event":{"id":"conformance","type":"TEST","app_user_id":"conformance-user"}}' \
  "http://127.0.0.1:$port/v1/webhooks/revenuecat"
"$stickerd" demo-art "$work/art" >/dev/null
export PYTHONPATH="$PWD/scripts/lib${PYTHONPATH:+:$PYTHONPATH}" SCHEMATHESIS_HOOKS=conformance_hooks
export CONFORMANCE_URL="http://127.0.0.1:$port" CONFORMANCE_PNG="$work/art/Caramel.png"
echo "schemathesis against stickerd on :$port for up to $seconds s (admin operations with the admin token, the rest as a signed-in user)"
# One worker: schemathesis' own code is not thread-safe on Python 3.11 (it raised SystemError and KeyError with two).
checks=all
status=0
CONFORMANCE_TOKEN=$token st run openapi.yaml --url "http://127.0.0.1:$port" -H "Authorization: Bearer $token" --include-tag admin --workers "${CONFORMANCE_WORKERS:-1}" \
  --max-time $((seconds / 2)) --checks "$checks" >"$work/st.log" 2>&1 || status=$?
CONFORMANCE_TOKEN=$user st run openapi.yaml --url "http://127.0.0.1:$port" -H "Authorization: Bearer $user" --exclude-tag admin --workers "${CONFORMANCE_WORKERS:-1}" \
  --max-time $((seconds / 2)) --checks "$checks" >>"$work/st.log" 2>&1 || status=$?
if [[ -n "${CONFORMANCE_LOG:-}" ]]; then cp "$work/st.log" "$CONFORMANCE_LOG"; fi
grep -E "Selected:|Tested:|generated|Failures|❌|🚫|failure" "$work/st.log" || true
# Operations whose generated data the service mostly refused: the schema is looser than the code there.
sed -n '/= WARNINGS =/,/= SUMMARY =/p' "$work/st.log" | grep -E "^ *- |mostly|rejected" || true
if [[ $status -ne 0 ]]; then
  # Each run's failures in full (the operation, the request and how to reproduce it), then the end of the log.
  sed -n '/= FAILURES =/,/= WARNINGS =/p' "$work/st.log"
  tail -80 "$work/st.log"
  echo "stickerd log:"; tail -40 "$work/stickerd.log"
fi
exit $status
