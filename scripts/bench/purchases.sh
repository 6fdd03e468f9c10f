#!/usr/bin/env bash
# Benchmarks purchases on a live release stickerd (embedded PostgreSQL, durable as `serve` runs it):
#  1. App Store notification intake (verify both JWS and their x5c chains, store, apply): distinct minted
#     notifications from a concurrent client (wrk, CONNECTIONS_INTAKE connections), each sent once; throughput, p99.
#  2. Cached manifests for 1,000 users, half of whom hold the premium product, with 1,000,000 purchase rows in the
#     database: the entitled users' throughput next to anonymous requests' in the same run (target 0.8x or better).
#  3. A flood of forged generic webhooks: each is refused (401) and kept in quarantine, which holds only the newest
#     --quarantine-limit (10,000) of them.
# Needs ../shared/testdata/appstore (Apple's test CA and leaf key) and python3-cryptography.
# Usage: scripts/bench.sh purchases [path/to/stickerd]   Environment: DURATION (10s), NOTIFICATIONS (12000).
set -euo pipefail
cd "$(dirname "$0")/../.."
source scripts/lib.sh
stickerd=${1:-.build/release/stickerd}
duration=${DURATION:-10s}
count=${NOTIFICATIONS:-12000}
intake_connections=${CONNECTIONS_INTAKE:-8}
appstore=${STICKER_TESTDATA:-../shared/testdata}/appstore
[[ -f "$appstore/certs/testCA.der" ]] || { echo "bench purchases: $appstore is missing; skipped"; exit 0; }
work=$(mktemp -d /tmp/stickerd-bench-purchases.XXXXXX)
chmod 755 "$work"
cleanup() { stop_stickerds; wait 2>/dev/null || true; rm -rf "$work"; }
trap cleanup EXIT

admin="bench-admin-$(head -c 12 /dev/urandom | od -An -tx1 | tr -d ' \n')"
export STICKER_USER_JWT_SECRET="bench-user-secret-$(head -c 16 /dev/urandom | od -An -tx1 | tr -d ' \n')"
export STICKER_ASSET_SIGNING_KEY="bench-asset-key-$(head -c 16 /dev/urandom | od -An -tx1 | tr -d ' \n')"
export STICKER_WEBHOOK_SECRETS="bench-webhook-secret-$(head -c 16 /dev/urandom | od -An -tx1 | tr -d ' \n')"
export STICKER_APPLE_ROOT_CERTS="$appstore/certs/testCA.der" STICKER_APPLE_BUNDLE_ID=com.example STICKER_APPLE_APP_ID=1234
STICKER_ADMIN_TOKEN=$admin start_stickerd "$stickerd" "$work/stickerd.log" --demo --data-dir "$work/db"
port=$STICKERD_PORT
sql() { psql -q -X -v ON_ERROR_STOP=1 -h "$work/db" -U stickerd stickerd "$@"; }

echo "Seeding: the Chewy group premium, users 1-1000, 1,000,000 purchases (users 1-500 hold com.example.premium)"
curl -sf -X PATCH -H "Authorization: Bearer $admin" -H 'Content-Type: application/json' \
  -d '{"productId":"com.example.premium"}' "http://127.0.0.1:$port/v1/admin/groups/chewy" >/dev/null
sql <<'SQL'
INSERT INTO users (id, purchase_token) SELECT 'user' || n, md5('user' || n)::uuid FROM generate_series(1, 1000) n;
-- Bulk rows need no NOTIFY: nothing has read them yet.
ALTER TABLE purchases DISABLE TRIGGER purchases_inserted;
INSERT INTO purchases (source, environment, transaction_id, original_transaction_id, product_id, user_id, purchased_at, expires_at,
                       expiry_as_of, revoked_at, revocation_as_of, as_of)
SELECT 'generic', 'production', 'bulk-' || n, 'bulk-' || n,
       CASE WHEN n <= 500 THEN 'com.example.premium' ELSE 'com.example.other' || (n % 40) END,
       CASE WHEN n <= 2000 THEN 'user' || ((n - 1) % 1000 + 1) ELSE 'customer' || (n % 200000) END,
       now() - interval '10 days', CASE WHEN n % 3 = 0 THEN now() - interval '1 day' ELSE now() + interval '30 days' END,
       now() - interval '10 days', CASE WHEN n % 7 = 0 AND n > 500 THEN now() - interval '2 days' END,
       now() - interval '10 days', now() - interval '10 days'
FROM generate_series(1, 1000000) n;
ALTER TABLE purchases ENABLE TRIGGER purchases_inserted;
ANALYZE purchases;
SQL
# Users 1-500 hold the premium product (rows 1-500, never revoked; n % 3 = 0 rows expired, so re-grant those).
sql -c "UPDATE purchases SET expires_at = now() + interval '30 days' WHERE transaction_id IN (SELECT 'bulk-' || n FROM generate_series(1, 500) n)"
echo "purchases: $(sql -At -c 'SELECT count(*) FROM purchases'), users holding the premium product: $(sql -At -c \
  "SELECT count(DISTINCT user_id) FROM purchases WHERE product_id = 'com.example.premium' AND revoked_at IS NULL AND expires_at > now()")"

python3 scripts/bench/mint.py tokens "$STICKER_USER_JWT_SECRET" 1 500 >"$work/entitled.txt"
python3 scripts/bench/mint.py tokens "$STICKER_USER_JWT_SECRET" 501 1000 >"$work/unentitled.txt"
cat "$work/entitled.txt" "$work/unentitled.txt" >"$work/mixed.txt"
: >"$work/anonymous.txt"
echo "Minting $count App Store notifications"
# For users 1-500 only: the other half must still hold nothing when the manifests are measured.
python3 scripts/bench/mint.py notifications "$appstore" "$count" 500 >"$work/notifications.txt"

run() {  # THREADS CONNECTIONS URL FILE MODE -> "p50 p99 requests non2xx rps"
  local out
  out=$(wrk -t"$1" -c"$2" -d"$duration" --timeout 10s -s scripts/bench/requests.lua "$3" -- "$4" "$5" "$1")
  echo "$(awk '/^RESULT/ {print $2, $3, $4, $5}' <<<"$out") $(awk '/Requests\/sec/ {print $2}' <<<"$out")"
}

echo
echo "App Store notification intake (verify, store, apply), $intake_connections connections:"
read -r p50 p99 requests failures rps <<<"$(run 2 "$intake_connections" "http://127.0.0.1:$port/v1/webhooks/apple/sandbox" "$work/notifications.txt" post)"
stored=$(sql -At -c "SELECT count(*) FROM webhook_events WHERE status = 'applied'")
printf '  %.0f notifications/s, p50 %s ms, p99 %s ms, %s requests, %s not 200, %s applied (targets: >= 500/s, p99 < 50 ms)\n' \
  "$rps" "$p50" "$p99" "$requests" "$failures" "$stored"

echo
echo "Cached manifest, 64 connections, 1,000 users (every request carries the next user's token):"
for file in entitled mixed anonymous; do run 2 64 "http://127.0.0.1:$port/v1/manifest" "$work/$file.txt" get >/dev/null; done  # warm up
chewy() { curl -sf -H "Authorization: Bearer $(sed -n "${1}p" "$work/mixed.txt")" "http://127.0.0.1:$port/v1/manifest" \
  | python3 scripts/lib/json_get.py groups.id=chewy.locked; }
locked=("$(chewy 1)" "$(chewy 1000)")
echo "  (Chewy locked for user1: ${locked[0]}, for user1000: ${locked[1]})"
[[ ${locked[0]} == False && ${locked[1]} == True ]] || { echo "bench purchases: user1 must see Chewy unlocked and user1000 locked" >&2; exit 1; }
read -r _ ap99 _ afail anonymous <<<"$(run 2 64 "http://127.0.0.1:$port/v1/manifest" "$work/anonymous.txt" get)"
read -r _ ep99 _ efail entitled <<<"$(run 2 64 "http://127.0.0.1:$port/v1/manifest" "$work/entitled.txt" get)"
read -r _ mp99 _ mfail mixed <<<"$(run 2 64 "http://127.0.0.1:$port/v1/manifest" "$work/mixed.txt" get)"
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a / b }'; }
printf '  %-34s %10.0f rps  p99 %6s ms  %s\n' "anonymous" "$anonymous" "$ap99" "1.00"
printf '  %-34s %10.0f rps  p99 %6s ms  %s\n' "entitled users (500 tokens)" "$entitled" "$ep99" "$(ratio "$entitled" "$anonymous")"
printf '  %-34s %10.0f rps  p99 %6s ms  %s\n' "half entitled (1,000 tokens)" "$mixed" "$mp99" "$(ratio "$mixed" "$anonymous")"
echo "  non-200 answers: $afail / $efail / $mfail (target ratio for entitled users: 0.8 or better)"

echo
echo "Forged generic webhooks (a bad signature, 401, quarantined), $intake_connections connections:"
echo '{"id":"forged","type":"purchase","userId":"user1","productId":"com.example.premium","transactionId":"f","occurredAt":1800000000}' \
  >"$work/forged.txt"
read -r _ fp99 frequests _ forged <<<"$(run 2 "$intake_connections" "http://127.0.0.1:$port/v1/webhooks/purchases" "$work/forged.txt" forged)"
kept=$(sql -At -c "SELECT count(*) FROM webhook_events WHERE status = 'unauthorized'")
printf '  %.0f deliveries/s, p99 %s ms, %s refused, %s kept in quarantine (limit 10,000)\n' "$forged" "$fp99" "$frequests" "$kept"
echo "wrk -d$duration on $(nproc) cores shared by wrk, stickerd and PostgreSQL"
